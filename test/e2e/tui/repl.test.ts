/**
 * The REPL in a real terminal (tmux) against the mock model server: a turn with tools, Esc
 * interrupt, the permission prompt answered each way, a prompt queued while the model works, Ctrl+O,
 * Shift+Tab, history, resize, exit.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileExists, runYoke, tempProject } from '../helpers';
import { READY, useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const fx = useTuiFixture('yoke-repl-');

const start = (args: string[] = [], size = { width: 100, height: 30 }) => fx.openReady(args, size);

describe.skipIf(!hasTmux)('the REPL in tmux', { timeout: 120_000 }, () => {
  it('runs a turn with a tool call and streams the answer as markdown', async () => {
    fx.server.reset([
      {
        reply: {
          content: [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool_use', name: 'Bash', input: { command: 'echo hello-from-bash' } },
          ],
        },
      },
      { reply: { content: [{ type: 'text', text: '## Result\n\n- the shell said **hello**' }] } },
    ]);
    const t = await start();
    await t.type('what does the shell say?');
    await t.press('Enter');
    const screen = await t.waitFor('• the shell said hello');
    expect(screen).toContain('> what does the shell say?');
    expect(screen).toContain('● Bash(echo hello-from-bash)');
    expect(screen).toMatch(/⎿ exit 0\n\s+hello-from-bash/);
    expect(screen).toContain('Result');
  });

  it('a long command shows its elapsed time and the latest line it printed', async () => {
    // It runs until the test has seen what it waits for (then the file `go` ends it): a fixed six
    // seconds raced the screen on a loaded machine.
    const command = 'for i in 1 2 3; do echo step $i; done; until [ -f go ]; do sleep 0.1; done';
    fx.server.reset([
      { reply: { content: [{ type: 'tool_use', name: 'Bash', input: { command } }] } },
      { reply: { content: [{ type: 'text', text: 'counted' }] } },
    ]);
    const t = await start(['--allowedTools', `Bash(${command})`]);
    await t.type('count slowly');
    await t.press('Enter');
    // Past three seconds a running tool shows how long it has run and what it printed last.
    const screen = await t.waitFor((s) => /⎿ Running… \d+s/.test(s) && /^\s+step 3$/m.test(s));
    expect(screen).toContain(`● Bash(${command})`);
    await writeFile(join(fx.cwd, 'go'), '');
    await t.waitFor('counted');
  });

  it('Ctrl+O prints a cut output again in full, below; the status line says full output is on', async () => {
    fx.server.reset([
      { reply: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'seq 101 140' } }] } },
      { reply: { content: [{ type: 'text', text: 'counted to forty' }] } },
    ]);
    const t = await start();
    await t.type('count');
    await t.press('Enter');
    let screen = await t.waitFor('counted to forty');
    expect(screen).toContain('… 36 earlier lines (ctrl+o to expand)');
    expect(screen).not.toMatch(/^\s+101$/m);
    await t.press('C-o');
    screen = await t.waitFor((s) => /full output$/m.test(s) && /^\s+101\n\s+102$/m.test(s));
    // The call is shown again whole, after the answer it came before.
    const lines = screen.split('\n');
    const again = lines.lastIndexOf('● Bash(seq 101 140)');
    expect(again).toBeGreaterThan(lines.findIndex((line) => line.includes('counted to forty')));
    expect(lines.slice(again + 2, again + 42).map((line) => line.trim())).toEqual(
      Array.from({ length: 40 }, (_, i) => String(101 + i)),
    );
  });

  it('Esc interrupts a streaming answer', async () => {
    fx.server.reset({
      chunkDelayMs: 200,
      turns: [{ reply: { content: [{ type: 'text', text: 'word '.repeat(200) }] } }],
    });
    const t = await start();
    await t.type('talk a lot');
    await t.press('Enter');
    await t.waitFor('esc to interrupt');
    await t.press('Escape');
    // The turn ends: the interrupt is reported and the spinner goes (within the poll's timeout).
    const screen = await t.waitFor((s) => s.includes('Interrupted') && !s.includes('esc to interrupt'));
    expect(screen).toContain('> talk a lot');
  });

  it('asks before a write: allow once runs it, deny does not and tells the model, always adds the rule, a note reaches the model', async () => {
    const touch = (name: string) => ({
      reply: { content: [{ type: 'tool_use' as const, name: 'Bash', input: { command: `touch ${name}` } }] },
    });
    const done = { reply: { content: [{ type: 'text' as const, text: 'finished.' }] } };
    fx.server.reset([
      touch('once.txt'),
      done,
      touch('denied.txt'),
      done,
      touch('always.txt'),
      done,
      touch('always.txt'),
      done,
      touch('noted.txt'),
      done,
    ]);
    const t = await start();

    await t.type('make once');
    await t.press('Enter');
    let screen = await t.waitFor("don't ask again");
    expect(screen).toContain('touch once.txt');
    await t.press('1');
    await t.waitFor('finished.');
    expect(await fileExists(join(fx.cwd, 'once.txt'))).toBe(true);

    await t.type('make denied');
    await t.press('Enter');
    await t.waitFor('touch denied.txt');
    await t.press('3');
    await t.waitFor((s) => s.split('finished.').length === 3);
    expect(await fileExists(join(fx.cwd, 'denied.txt'))).toBe(false);
    const deniedRequest = JSON.stringify(fx.server.requests.at(-1)?.body);
    expect(deniedRequest).toContain('The user denied this Bash call.');

    await t.type('make always');
    await t.press('Enter');
    screen = await t.waitFor("don't ask again for: Bash(touch always.txt)");
    await t.press('2');
    await t.waitFor((s) => s.split('finished.').length === 4);
    // The same call again: the session rule allows it without a question.
    await t.type('again');
    await t.press('Enter');
    screen = await t.waitFor((s) => s.split('finished.').length === 5);
    expect(screen.split("don't ask again").length).toBe(1);
    // Saved for later sessions in this folder, as Claude Code saves its approvals.
    const saved = JSON.parse(await readFile(join(fx.cwd, '.yoke', 'settings.local.json'), 'utf8'));
    expect(saved.permissions.allow).toEqual(['Bash(touch always.txt)']);

    // No, with a note: the model reads what to do instead.
    await t.type('make noted');
    await t.press('Enter');
    await t.waitFor('touch noted.txt');
    await t.press('4');
    await t.waitFor('Tell the model:');
    await t.type('write it with printf instead');
    await t.press('Enter');
    await t.waitFor((s) => s.split('finished.').length === 6);
    expect(await fileExists(join(fx.cwd, 'noted.txt'))).toBe(false);
    expect(JSON.stringify(fx.server.requests.at(-1)?.body)).toContain(
      'The user denied this Bash call and said: write it with printf instead',
    );
  });

  it('a prompt typed while the model works waits, shown as queued, and the model reads it at the next boundary', async () => {
    // The tool runs until the test has seen the queued line (then the file `go-queue` ends it).
    const command = 'until [ -f go-queue ]; do sleep 0.1; done; echo tool-finished';
    fx.server.reset([
      { reply: { content: [{ type: 'tool_use', name: 'Bash', input: { command } }] } },
      { reply: { content: [{ type: 'text', text: 'read-the-queued-prompt' }] } },
    ]);
    const t = await start(['--allowedTools', `Bash(${command})`]);
    await t.type('wait for it');
    await t.press('Enter');
    await t.waitFor(`● Bash(${command})`);
    await t.type('the queued one');
    await t.press('Enter');
    await t.waitFor('⧗ queued: the queued one');
    expect(fx.server.requests).toHaveLength(1);
    await writeFile(join(fx.cwd, 'go-queue'), '');
    await t.waitFor((s) => s.includes('read-the-queued-prompt') && !s.includes('⧗ queued'));
    // The next request, after the tool's result, carried it.
    const sent = JSON.stringify(fx.server.requests.at(-1)?.body);
    expect(sent).toMatch(/tool-finished.*the queued one/);
  });

  it('Shift+Tab cycles the permission mode in the status line', async () => {
    const t = await start();
    await t.press('BTab');
    await t.waitFor('accept edits on');
    await t.press('BTab');
    await t.waitFor('plan mode on');
    await t.press('BTab');
    await t.waitFor((s) => s.includes('default mode') && !s.includes('plan mode on'));
  });

  it('recalls an earlier prompt with Up', async () => {
    fx.server.reset([{ reply: { content: [{ type: 'text', text: 'noted' }] }, repeat: 'forever' }]);
    const t = await start();
    await t.type('remember this prompt');
    await t.press('Enter');
    await t.waitFor('noted');
    await t.press('Up');
    await t.waitFor('│ > remember this prompt');
  });

  it('reflows the input box and status line on resize', async () => {
    const t = await start([], { width: 100, height: 30 });
    await t.resize(60, 20);
    const screen = await t.waitFor((s) =>
      s.split('\n').some((line) => /^╭─+╮$/.test(line) && line.length === 60),
    );
    expect(screen).toContain('default mode');
    // tmux rewrapped the 100-column box when it narrowed; none of that is left on screen.
    const borders = screen.split('\n').filter((line) => line.includes('─'));
    expect(borders.every((line) => /^[╭╰]─+[╮╯]$/.test(line) && line.length === 60)).toBe(true);
  });

  it("Ctrl+Z stops it and fg brings it back: one prompt box, drawn below the shell's lines", async () => {
    const t = await fx.openReady([], { shell: true });
    await t.type('half a thought');
    await t.press('C-z');
    await t.waitFor(/Stopped.*\n\$ $/m);
    await t.type('fg');
    await t.press('Enter');
    const screen = await t.waitFor((s) => /\$ fg\n.*\n\n?╭─+╮\n│ > half a thought/.test(s) && READY(s));
    // Nothing of the frame before the stop is left above the shell's lines.
    expect(screen.split('\n').filter((line) => line.startsWith('╭')).length).toBe(1);
    await t.type(' and more');
    await t.waitFor('│ > half a thought and more');
  });

  it('wraps a prompt wider than an 80-column terminal under its text, within the width', async () => {
    fx.server.reset([{ reply: { content: [{ type: 'text', text: 'noted' }] } }]);
    const t = await start([], { width: 80, height: 24 });
    const prompt =
      'Report: a list of findings, most serious first. For each: the file and line, what is wrong, why it matters, and the concrete fix. End with one line: whether the change is ready, ready after the listed fixes, or needs rework.';
    await t.type(prompt);
    await t.press('Enter');
    // Rows the terminal itself wrapped come back joined (capture -J): each row must fit.
    const screen = await t.waitFor('noted');
    const rows = screen.split('\n');
    const first = rows.findIndex((row) => row.startsWith('> Report: a list'));
    const mine = rows.slice(
      first,
      rows.findIndex((row, i) => i > first && row.trim() === ''),
    );
    expect(mine.length).toBeGreaterThan(2);
    for (const row of mine) expect(row.length).toBeLessThanOrEqual(80);
    for (const row of mine.slice(1)) expect(row).toMatch(/^ {2}\S/);
    expect(mine.map((row) => row.slice(2).trim()).join(' ')).toBe(prompt);
  });

  it('quits on a second Ctrl+C, leaving no "press Ctrl+C again" behind', async () => {
    const t = await start();
    await t.press('C-c');
    await t.waitFor('Press Ctrl+C again to exit');
    await t.press('C-c');
    const screen = await t.waitFor('Resume it with: yoke --resume');
    expect(await t.exitCode()).toBe(0);
    expect(screen).not.toContain('Press Ctrl+C again to exit');
  });

  it('quits on Ctrl+D and prints the session id and how to resume it', async () => {
    fx.server.reset([{ reply: { content: [{ type: 'text', text: 'hi there' }] } }]);
    const t = await start();
    await t.type('hello');
    await t.press('Enter');
    await t.waitFor('hi there');
    await t.press('C-d');
    const screen = await t.waitFor('Resume it with: yoke --resume');
    expect(await t.exitCode()).toBe(0);
    const id = /yoke --resume ([0-9a-f-]+)/.exec(screen)?.[1] ?? '';
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const sessions = await runYoke(['sessions'], { cwd: fx.cwd, env: fx.env() });
    expect(sessions.stdout).toContain(id.slice(0, 8));
  });
});

describe.skipIf(!hasTmux)('the trust prompt', { timeout: 120_000 }, () => {
  it('asks in an untrusted folder; yes records the trust, so the next start does not ask', async () => {
    const folder = await tempProject('yoke-untrusted-');
    const first = await fx.open([], { cwd: folder });
    await first.waitFor('Do you trust the files in this folder?');
    await first.press('Enter');
    await first.waitFor(/default mode/);
    await first.press('C-d');
    expect(await first.exitCode()).toBe(0);
    await first.close();
    const state = await readFile(join(fx.home, 'state.json'), 'utf8').catch(() => '');
    expect(state).toContain(folder);
    const second = await fx.open([], { cwd: folder });
    const screen = await second.waitFor(/default mode/);
    expect(screen).not.toContain('Do you trust');
  });

  it('no exits without running anything', async () => {
    fx.server.reset([]);
    const folder = await tempProject('yoke-untrusted-');
    const t = await fx.open([], { cwd: folder });
    await t.waitFor('Do you trust the files in this folder?');
    await t.press('2');
    await t.waitFor('Not trusted: nothing was run.');
    expect(await t.exitCode()).toBe(1);
    expect(fx.server.requests).toHaveLength(0);
  });
});
