/** /memory and /init on a temporary project. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { typedCommand } from '../../session/session-list';
import { runCommandLine } from '../dispatch';
import { createTestHost, type TestHost } from '../test-host';

let host: TestHost;
beforeEach(async () => {
  host = await createTestHost();
});
afterEach(() => host.cleanup());

describe('/memory', () => {
  it('without an editor lists the memory files and says how to get one', async () => {
    host.contextSources = {
      ...host.contextSources,
      memoryFiles: [{ path: '/elsewhere/CLAUDE.md', content: 'x' }],
    };
    const outcome = await runCommandLine('/memory', host);
    expect(outcome).toEqual({
      kind: 'text',
      text: [
        'No editor: set $VISUAL or $EDITOR to edit files from Yoke.',
        'Memory files:',
        `  1. ${join(host.projectRoot, 'AGENTS.md')} (not created yet)`,
        `  2. ${join(host.env.YOKE_HOME, 'AGENTS.md')} (not created yet)`,
        '  3. /elsewhere/CLAUDE.md',
      ].join('\n'),
    });
    await writeFile(join(host.projectRoot, 'AGENTS.md'), '# Notes\n');
    const after = await runCommandLine('/memory', host);
    expect(after).toMatchObject({
      text: expect.stringContaining(`  1. ${join(host.projectRoot, 'AGENTS.md')}\n`),
    });
  });

  it("opens the project's file (CLAUDE.md when that is the one it has), the user's, or one by number", async () => {
    await writeFile(join(host.projectRoot, 'CLAUDE.md'), '# rules\n');
    host.editor = async () => ({ opened: true });
    expect(await runCommandLine('/memory', host)).toEqual({
      kind: 'text',
      text: expect.stringMatching(/^Edited .*CLAUDE\.md\. The change applies from the next conversation/),
    });
    await runCommandLine('/memory user', host);
    await runCommandLine('/memory 2', host);
    expect(host.edited).toEqual([
      join(host.projectRoot, 'CLAUDE.md'),
      join(host.env.YOKE_HOME, 'AGENTS.md'),
      join(host.env.YOKE_HOME, 'AGENTS.md'),
    ]);
    expect(await runCommandLine('/memory 9', host)).toEqual({
      kind: 'text',
      text: expect.stringMatching(/^No memory file "9"\. The files:/),
    });
  });
});

describe('/init', () => {
  it('asks the model to write AGENTS.md when the project has no memory file', async () => {
    const outcome = await runCommandLine('/init', host);
    if (outcome?.kind !== 'prompt') throw new Error('expected a prompt');
    expect(outcome.display).toBe('/init (write AGENTS.md)');
    expect(outcome.prompt).toMatch(/\nCreate AGENTS\.md in the project root\./);
    expect(outcome.prompt).toContain('build, test');
    // What a resume and the session picker show of it: the command, not its instructions.
    expect(typedCommand({ message: { content: outcome.prompt } })).toBe('/init');
  });

  it('asks to update CLAUDE.md when that is the file the project has, and AGENTS.md when both exist', async () => {
    await writeFile(join(host.projectRoot, 'CLAUDE.md'), '# rules\n');
    const claude = await runCommandLine('/init', host);
    expect(claude).toMatchObject({ kind: 'prompt', display: '/init (update CLAUDE.md)' });
    expect(claude?.kind === 'prompt' && claude.prompt).toMatch(
      /\nRead CLAUDE\.md in the project root and update it/,
    );
    await writeFile(join(host.projectRoot, 'AGENTS.md'), '# agents\n');
    expect(await runCommandLine('/init', host)).toMatchObject({ display: '/init (update AGENTS.md)' });
  });
});
