/**
 * The session scratchpad's allowance (coordinator mode, agent memory): file tools and Bash's proven
 * plain edits read and write in it without a prompt, judged on the real path — a `..` out of it, or a symlink in it that leads elsewhere,
 * gets the ordinary decision (headless: a denial that says why).
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCanUseTool } from './can-use-tool';
import { corpusRequest } from './corpus-test-support';
import type { ToolPermissionContext } from './types';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-scratch-perm-')));
const project = join(root, 'project');
const scratch = join(root, 'scratchpad');
const outside = join(root, 'outside');
mkdirSync(project);
mkdirSync(scratch, { mode: 0o700 });
mkdirSync(outside);
writeFileSync(join(outside, 'secret.txt'), 'secret\n');
symlinkSync(outside, join(scratch, 'out-dir'));
symlinkSync(join(outside, 'secret.txt'), join(scratch, 'out-file'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const permissionContext: ToolPermissionContext = {
  mode: 'default',
  rules: [],
  additionalDirectories: [],
  scratchpadDirectories: [scratch],
};
const decide = createCanUseTool({ home: join(root, 'home') });
const call = (toolName: string, input: Record<string, unknown>, context = permissionContext) =>
  decide(corpusRequest(toolName, input, { permissionContext: context, projectRoot: project }));

describe('the scratchpad allowance', () => {
  it('lets file tools read and write in the scratchpad without a prompt', async () => {
    for (const [tool, input] of [
      ['Write', { file_path: join(scratch, 'findings.md'), content: 'x' }],
      ['Edit', { file_path: join(scratch, 'findings.md'), old_string: 'x', new_string: 'y' }],
      ['Read', { file_path: join(scratch, 'findings.md') }],
      ['Glob', { pattern: '*.md', path: scratch }],
    ] as const) {
      const decision = await call(tool, input);
      expect(decision, tool).toMatchObject({
        behavior: 'allow',
        decisionReason: { reason: "inside the session's scratchpad" },
      });
    }
  });

  it('refuses a way out by .. or by a symlink in the scratchpad', async () => {
    // Calibration: writing through either link really changes the file outside.
    writeFileSync(join(scratch, 'out-file'), 'changed through the link\n');
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('changed through the link\n');
    writeFileSync(join(scratch, 'out-dir/new.txt'), 'planted\n');
    expect(readFileSync(join(outside, 'new.txt'), 'utf8')).toBe('planted\n');

    for (const file_path of [
      join(scratch, 'out-file'),
      join(scratch, 'out-dir/new.txt'),
      `${scratch}/../outside/secret.txt`,
    ]) {
      const decision = await call('Write', { file_path, content: 'x' });
      expect(decision.behavior, file_path).toBe('deny');
      expect(decision).toMatchObject({ message: expect.stringContaining('outside the project') });
    }
    const read = await call('Read', { file_path: join(scratch, 'out-file') });
    expect(read.behavior).toBe('deny');
  });

  it('does not beat a deny rule, plan mode, or reach a session without a scratchpad', async () => {
    const denyRule = await call(
      'Write',
      { file_path: join(scratch, 'a.md'), content: 'x' },
      {
        ...permissionContext,
        rules: [{ toolName: 'Write', behavior: 'deny', source: 'userSettings' }],
      },
    );
    expect(denyRule.behavior).toBe('deny');
    const plan = await call(
      'Write',
      { file_path: join(scratch, 'a.md'), content: 'x' },
      { ...permissionContext, mode: 'plan' },
    );
    expect(plan.behavior).toBe('deny');
    const none = await call(
      'Write',
      { file_path: join(scratch, 'a.md'), content: 'x' },
      { ...permissionContext, scratchpadDirectories: [] },
    );
    expect(none.behavior).toBe('deny');
  });
});

describe('the scratchpad allowance for Bash', () => {
  writeFileSync(join(project, 'notes.md'), 'notes\n');
  writeFileSync(join(scratch, 'findings.md'), 'found\n');
  const bash = (command: string, context = permissionContext) => call('Bash', { command }, context);

  it('lets proven plain edits, redirects and reads in the scratchpad run without a prompt', async () => {
    for (const command of [
      `cp ${join(project, 'notes.md')} ${join(scratch, 'notes.md')}`,
      `mkdir -p ${join(scratch, 'sub', 'deeper')}`,
      `touch ${join(scratch, 'stamp')}`,
      `echo hello > ${join(scratch, 'hello.txt')}`,
      `cat ${join(scratch, 'findings.md')}`,
      `grep -n found ${join(scratch, 'findings.md')} > ${join(scratch, 'hits.txt')}`,
    ]) {
      const decision = await bash(command);
      expect(decision, command).toMatchObject({
        behavior: 'allow',
        decisionReason: { reason: expect.stringMatching(/scratchpad|read-only/) },
      });
    }
    // The writes are what the option tables say: a plain copy into the scratchpad allowed as such.
    expect(await bash(`cp ${join(project, 'notes.md')} ${join(scratch, 'copy.md')}`)).toMatchObject({
      decisionReason: { reason: "inside the session's scratchpad" },
    });
  });

  it('refuses a way out by a symlink or .., writes it cannot prove, and reads outside', async () => {
    // Calibration: a plain cp through the scratchpad's planted link really writes outside.
    execFileSync('cp', [join(project, 'notes.md'), join(scratch, 'out-dir', 'copied.md')]);
    expect(readFileSync(join(outside, 'copied.md'), 'utf8')).toBe('notes\n');
    // And `sed -i` with the `e` flag really runs a command (file-edit-commands.ts has the class).
    execFileSync('sh', [
      '-c',
      `sed -i 's#found#touch ${join(outside, 'ran')}#e' ${join(scratch, 'findings.md')}`,
    ]);
    expect(existsSync(join(outside, 'ran'))).toBe(true);
    writeFileSync(join(scratch, 'findings.md'), 'found\n');

    for (const command of [
      `cp ${join(project, 'notes.md')} ${join(scratch, 'out-dir', 'again.md')}`,
      `echo x > ${join(scratch, 'out-file')}`,
      `echo x > ${scratch}/../outside/escaped.txt`,
      `sed -i 's/found/touch x/e' ${join(scratch, 'findings.md')}`,
      `rm -rf ${join(scratch, 'sub')}`,
      `cp ${join(outside, 'secret.txt')} ${join(scratch, 'stolen.txt')}`,
      `cat ${join(scratch, 'out-file')}`,
    ]) {
      const decision = await bash(command);
      expect(decision.behavior, command).toBe('deny');
      expect('message' in decision && decision.message, command).toBeTruthy();
    }
    expect(existsSync(join(outside, 'again.md'))).toBe(false);
  });

  it('does not reach a session without a scratchpad, nor plan mode', async () => {
    const command = `cp ${join(project, 'notes.md')} ${join(scratch, 'other.md')}`;
    expect((await bash(command, { ...permissionContext, scratchpadDirectories: [] })).behavior).toBe('deny');
    expect((await bash(command, { ...permissionContext, mode: 'plan' })).behavior).toBe('deny');
  });
});
