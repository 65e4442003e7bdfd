/**
 * Tool calls that wait say so (tmux, mock model server): two calls in one answer, the second
 * queued behind the first — behind its run, or behind its permission question — shows
 * `⎿ Waiting…` without a clock, and its clock starts when it really starts.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileExists } from '../helpers';
import { useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const fx = useTuiFixture('yoke-tool-states-');

const bash = (command: string) => ({ type: 'tool_use' as const, name: 'Bash', input: { command } });
const done = { reply: { content: [{ type: 'text' as const, text: 'both done.' }] } };

/** The two lines a tool call shows: its head and the status under it. */
function statusOf(screen: string, head: string): string | undefined {
  const lines = screen.split('\n');
  const at = lines.findIndex((line) => line.includes(head));
  return at < 0 ? undefined : lines[at + 1]?.trim();
}

describe.skipIf(!hasTmux)('tool calls queued behind another', { timeout: 120_000 }, () => {
  it('a call behind a running one waits without a clock, and its clock starts when it starts', async () => {
    // The first runs until the test has seen the second wait for three seconds and more.
    const first = 'until [ -f go ]; do sleep 0.1; done';
    const second = 'touch second.txt; until [ -f go2 ]; do sleep 0.1; done';
    fx.server.reset([{ reply: { content: [bash(first), bash(second)] } }, done]);
    const t = await fx.openReady(['--allowedTools', `Bash(${first})`, `Bash(${second})`], {
      width: 100,
      height: 30,
    });
    await t.type('run both');
    await t.press('Enter');
    // Past three seconds the first shows its clock; the second has not started and shows none.
    const screen = await t.waitFor((s) => /⎿ Running… [3-9]s/.test(s));
    expect(statusOf(screen, `Bash(${second})`)).toBe('⎿ Waiting…');
    expect(await fileExists(join(fx.cwd, 'second.txt'))).toBe(false);

    await writeFile(join(fx.cwd, 'go'), '');
    // The second starts now, and its clock with it: seconds after the answer, it shows none yet.
    const running = await t.waitFor((s) => statusOf(s, `Bash(${second})`)?.startsWith('⎿ Running…') === true);
    expect(statusOf(running, `Bash(${second})`)).toBe('⎿ Running…');
    await writeFile(join(fx.cwd, 'go2'), '');
    await t.waitFor('both done.');
    expect(await fileExists(join(fx.cwd, 'second.txt'))).toBe(true);
  });

  it("a call behind another's permission question waits, and asks its own when its turn comes", async () => {
    fx.server.reset([{ reply: { content: [bash('touch one.txt'), bash('touch two.txt')] } }, done]);
    const t = await fx.openReady([], { width: 100, height: 30 });
    await t.type('make two files');
    await t.press('Enter');
    let screen = await t.waitFor("don't ask again");
    expect(statusOf(screen, 'Bash(touch one.txt)')).toBe('⎿ Waiting for permission…');
    expect(statusOf(screen, 'Bash(touch two.txt)')).toBe('⎿ Waiting…');
    expect(screen).not.toContain('Running…');

    await t.press('1');
    screen = await t.waitFor((s) => statusOf(s, 'Bash(touch two.txt)') === '⎿ Waiting for permission…');
    expect(await fileExists(join(fx.cwd, 'one.txt'))).toBe(true);
    await t.press('1');
    await t.waitFor('both done.');
    expect(await fileExists(join(fx.cwd, 'two.txt'))).toBe(true);
  });
});
