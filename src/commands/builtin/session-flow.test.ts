/** /clear, /compact, /exit, /resume and /help through the dispatcher, on a test host with real session files. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectDir, transcriptPath } from '../../session/transcript-paths';
import { runCommandLine } from '../dispatch';
import { createTestHost, type TestHost } from '../test-host';

let host: TestHost;
beforeEach(async () => {
  host = await createTestHost();
});
afterEach(() => host.cleanup());

async function writeSession(id: string, prompt: string) {
  await mkdir(projectDir(host.env, host.cwd), { recursive: true });
  const line = {
    type: 'user',
    uuid: 'u1',
    timestamp: new Date().toISOString(),
    cwd: host.cwd,
    message: { role: 'user', content: prompt },
  };
  await writeFile(transcriptPath(host.env, host.cwd, id), `${JSON.stringify(line)}\n`);
}

describe('conversation commands', () => {
  it('/clear, /compact and /exit say what the UI should do', async () => {
    expect(await runCommandLine('/clear', host)).toEqual({ kind: 'clear' });
    expect(await runCommandLine('/new', host)).toEqual({ kind: 'clear' });
    expect(await runCommandLine('/compact', host)).toEqual({ kind: 'compact' });
    expect(await runCommandLine('/compact  keep the failing tests ', host)).toEqual({
      kind: 'compact',
      instructions: 'keep the failing tests',
    });
    expect(await runCommandLine('/quit', host)).toEqual({ kind: 'exit' });
  });

  it('/resume opens the picker, or resumes the session an id prefix names', async () => {
    const id = '11111111-2222-4333-8444-555555555555';
    await writeSession(id, 'fix the parser');
    expect(await runCommandLine('/resume', host)).toEqual({ kind: 'pick-session' });
    expect(await runCommandLine('/resume 1111', host)).toEqual({ kind: 'resume', sessionId: id });
  });

  it('/resume with an id that matches nothing explains and suggests', async () => {
    await writeSession('11111111-2222-4333-8444-555555555555', 'fix the parser');
    const outcome = await runCommandLine('/resume 2111', host);
    expect(outcome?.kind).toBe('text');
    expect(outcome?.kind === 'text' && outcome.text).toContain('11111111-2222-4333-8444-555555555555');
  });
});

describe('/help and unknown commands', () => {
  it('lists every command with its argument hint, and the input prefixes', async () => {
    const outcome = await runCommandLine('/help', host);
    if (outcome?.kind !== 'text') throw new Error('expected text');
    for (const command of host.commands.list()) expect(outcome.text).toContain(`/${command.name}`);
    expect(outcome.text).toContain('/compact [instructions]');
    expect(outcome.text).toMatch(/!command .*shell/);
    expect(outcome.text).toMatch(/#text .*memory/);
    // Descriptions start in one column near the names, whatever one command's arguments are.
    const helpLine = outcome.text.split('\n').find((line) => line.startsWith('  /help '));
    expect(helpLine?.indexOf('List the commands')).toBeLessThanOrEqual(30);
    const long = outcome.text.split('\n').findIndex((line) => line.startsWith('  /permissions ['));
    expect(outcome.text.split('\n')[long + 1]).toMatch(/^ {20,30}\S/);
  });

  it('/help in an 80-column terminal wraps a description under itself, not under the names', async () => {
    const outcome = await runCommandLine('/help', { ...host, textColumns: () => 78 });
    if (outcome?.kind !== 'text') throw new Error('expected text');
    const lines = outcome.text.split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(78);
    const compact = lines.findIndex((line) => line.startsWith('  /compact '));
    const column = (lines[compact] as string).indexOf('Summarize');
    expect(column).toBeGreaterThan(10);
    // Its description's next line starts where its first did.
    expect(lines[compact + 1]).toMatch(new RegExp(`^ {${column}}\\S`));
  });

  it("/help lists every key the README's interactive section names", async () => {
    const outcome = await runCommandLine('/help', host);
    if (outcome?.kind !== 'text') throw new Error('expected text');
    const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
    const keys = readme.slice(
      readme.indexOf('Keys: Enter sends'),
      readme.indexOf('A prompt typed while the model works'),
    );
    const named = new Set(keys.match(/(?:Ctrl|Shift|Alt)\+\w+|\bEsc\b|Up\/Down|\bTab\b/g));
    expect(named.size).toBeGreaterThan(10);
    const listed = outcome.text.slice(outcome.text.indexOf('Keys:'));
    for (const key of named) expect(listed).toContain(key);
    // Shown indented by 2 in an 80-column terminal, a key's line does not wrap.
    for (const line of listed.split('\n')) expect(line.length).toBeLessThanOrEqual(78);
  });

  it('/help <command> describes one command with its aliases', async () => {
    const outcome = await runCommandLine('/help exit', host);
    expect(outcome).toEqual({ kind: 'text', text: expect.stringContaining('Aliases: /quit') });
  });

  it('an unknown command gets the nearest names; a path is not a command', async () => {
    expect(await runCommandLine('/comapct', host)).toEqual({
      kind: 'text',
      text: 'Unknown command /comapct. Did you mean /compact?',
    });
    expect(await runCommandLine('/usr/local/bin is where it lives', host)).toBeUndefined();
    expect(await runCommandLine('plain prompt', host)).toBeUndefined();
  });

  it('a command typed without its folder or plugin name gets the namespaced ones first', async () => {
    for (const name of ['frontend:lint', 'formatter:fmt'])
      host.commands.register({ kind: 'local', name, description: name, run: async () => ({ kind: 'none' }) });
    // Before, `/lint` got only `/init`, one edit away, and `/fmt` only the /help hint.
    expect(await runCommandLine('/lint', host)).toEqual({
      kind: 'text',
      text: 'Unknown command /lint. Did you mean /frontend:lint, /init?',
    });
    expect(await runCommandLine('/fmt', host)).toEqual({
      kind: 'text',
      text: 'Unknown command /fmt. Did you mean /formatter:fmt?',
    });
  });

  it('a command that throws becomes one line for the user', async () => {
    host.commands.register({
      name: 'broken',
      description: 'fails',
      run: async () => {
        throw new Error('disk full');
      },
    });
    expect(await runCommandLine('/broken', host)).toEqual({
      kind: 'text',
      text: '/broken failed: disk full',
    });
  });
});
