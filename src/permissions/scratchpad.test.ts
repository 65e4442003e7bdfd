/**
 * The session scratchpad's allowance (coordinator mode): file tools read and write in it without
 * a prompt, judged on the real path — a `..` out of it, or a symlink in it that leads elsewhere,
 * gets the ordinary decision (headless: a denial that says why).
 */
import {
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
