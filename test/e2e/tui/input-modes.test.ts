/**
 * The REPL's input modes in a real terminal (tmux): `!` runs a shell command whose output the
 * model then reads, `#` adds a note to the memory file, `@` completes paths, `/compact` compacts,
 * and prompts are remembered across runs.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const fx = useTuiFixture('yoke-modes-', async (cwd) => {
  await mkdir(join(cwd, 'src'), { recursive: true });
  await writeFile(join(cwd, 'src', 'parser.ts'), 'export {};\n');
  await mkdir(join(cwd, 'src', 'my dir'), { recursive: true });
  await writeFile(join(cwd, 'src', 'my dir', 'notes file.md'), 'the-notes-content-77\n');
  // A repository, as projects are: ripgrep reads .gitignore inside one.
  execFileSync('git', ['init', '-q'], { cwd });
  await writeFile(join(cwd, '.gitignore'), 'ignored.ts\n');
  await writeFile(join(cwd, 'ignored.ts'), '\n');
});

const start = () => fx.openReady();

const lastRequestText = () => JSON.stringify(fx.server.requests.at(-1)?.body ?? {});

describe.skipIf(!hasTmux)('input modes in tmux', { timeout: 120_000 }, () => {
  it('! runs the command, shows its output, and the model reads it with the next prompt', async () => {
    fx.server.reset([{ reply: { content: [{ type: 'text', text: 'seen it' }] } }]);
    const t = await start();
    await t.type('!echo bang-output-42');
    await t.press('Enter');
    await t.waitFor(/! echo bang-output-42\n\s+bang-output-42/);
    expect(fx.server.requests).toHaveLength(0);
    await t.type('what did I run?');
    await t.press('Enter');
    await t.waitFor('seen it');
    expect(lastRequestText()).toContain('<bash-input>echo bang-output-42</bash-input>');
    expect(lastRequestText()).toContain('bang-output-42</bash-stdout>');
  });

  it('# appends the note to AGENTS.md', async () => {
    const t = await start();
    await t.type('#use pnpm, not npm');
    await t.press('Enter');
    await t.waitFor('Noted in');
    expect(await readFile(join(fx.cwd, 'AGENTS.md'), 'utf8')).toContain('- use pnpm, not npm');
  });

  it('@ completes a project file with Tab, leaving out ignored files', async () => {
    const t = await start();
    await t.type('look at @par');
    await t.waitFor('@src/parser.ts');
    await t.press('Tab');
    await t.waitFor('│ > look at @src/parser.ts');
    await t.press('C-u');
    await t.type('@ign');
    const screen = await t.waitFor('│ > @ign');
    expect(screen).not.toContain('@ignored.ts');
  });

  it('@ completes a path with spaces quoted, and the file is attached when the prompt is sent', async () => {
    fx.server.reset([{ reply: { content: [{ type: 'text', text: 'got the notes' }] } }]);
    const t = await start();
    await t.type('read @notes');
    await t.waitFor('@src/my dir/notes file.md');
    await t.press('Tab');
    await t.waitFor('│ > read @"src/my dir/notes file.md"');
    await t.type('now');
    await t.press('Enter');
    await t.waitFor('got the notes');
    expect(lastRequestText()).toContain('the-notes-content-77');
  });

  it('/compact summarises the conversation through the model', async () => {
    fx.server.reset([
      { reply: { content: [{ type: 'text', text: 'first answer' }] } },
      { reply: { content: [{ type: 'text', text: '<summary>We talked about one thing.</summary>' }] } },
    ]);
    const t = await start();
    await t.type('first question');
    await t.press('Enter');
    await t.waitFor('first answer');
    await t.type('/compact keep the names');
    await t.press('Enter');
    await t.waitFor('Conversation compacted');
    expect(lastRequestText()).toContain('keep the names');
  });

  it('remembers prompts across runs (Up in a new session recalls them)', async () => {
    fx.server.reset([{ reply: { content: [{ type: 'text', text: 'ok' }] }, repeat: 'forever' }]);
    let t = await start();
    await t.type('a prompt worth keeping');
    await t.press('Enter');
    await t.waitFor('ok');
    await t.press('C-d');
    await t.exitCode();
    await t.close();
    t = await start();
    await t.press('Up');
    await t.waitFor('│ > a prompt worth keeping');
  });
});
