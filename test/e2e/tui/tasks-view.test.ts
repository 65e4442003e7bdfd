/**
 * The live /tasks view in a real terminal (tmux): a background shell the model started shows
 * with its status and latest line; Enter shows its output; `k` stops it. With colours and without
 * (NO_COLOR): the session's warning that the shell was killed once went to stderr, onto the
 * terminal under the frame writer, and closing the view left a stale row.
 */
import { describe, expect, it } from 'vitest';
import { READY, useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const fx = useTuiFixture('yoke-tasks-');

describe.skipIf(!hasTmux)('/tasks in tmux', { timeout: 120_000 }, () => {
  it.each([
    ['with colours', {}],
    ['with NO_COLOR', { NO_COLOR: '1' }],
  ])('lists a running background shell live, shows its output, and k stops it (%s)', async (_, colours) => {
    fx.server.reset([
      {
        reply: {
          content: [
            {
              type: 'tool_use',
              name: 'Bash',
              input: {
                command: 'echo server-up; echo listening-now; sleep 300',
                run_in_background: true,
                description: 'dev server',
              },
            },
          ],
        },
      },
      { reply: { content: [{ type: 'text', text: 'started the server' }] } },
    ]);
    const t = await fx.open(['--allowedTools', 'Bash'], { env: { ...fx.env(), ...colours } });
    await t.waitFor(READY, { timeoutMs: 45_000 });
    await t.type('start the dev server');
    await t.press('Enter');
    await t.waitFor((s) => s.includes('started the server') && s.includes('1 shell running'));
    await t.type('/tasks ');
    await t.press('Enter');
    let screen = await t.waitFor(/bash_1 {2}shell {2}dev server · running · \d+s {2}listening-now/);
    expect(screen).toContain('Background tasks (1 running)');
    await t.press('Enter');
    // The output is read from its file after the box opens ("Reading…" first).
    screen = await t.waitFor(/│ server-up +│\n│ listening-now +│/);
    expect(screen).toContain('The whole output:');
    await t.press('Escape');
    await t.waitFor((s) => !s.includes('The whole output:'));
    await t.type('k');
    screen = await t.waitFor('Stopped bash_1.');
    expect(screen).toMatch(/bash_1 {2}shell {2}dev server · killed/);
    await t.press('Escape');
    screen = await t.waitFor((s) => !s.includes('Background tasks') && READY(s));
    expect(screen).not.toContain('shell running');
    // The warning is a line of the transcript; the view left no row behind (one box: the input's).
    expect(screen).toContain('Background shell bash_1 (dev server) killed.');
    expect(screen).not.toContain('yoke: warning');
    expect(screen.split('\n').filter((row) => row.startsWith('╭'))).toHaveLength(1);
  });

  it('the status line stops counting a background shell when it ends, with no key pressed', async () => {
    fx.server.reset([
      {
        reply: {
          content: [
            {
              type: 'tool_use',
              name: 'Bash',
              input: { command: 'sleep 2; echo short-job-done', run_in_background: true },
            },
          ],
        },
      },
      { reply: { content: [{ type: 'text', text: 'started the short job' }] } },
    ]);
    const t = await fx.openReady(['--allowedTools', 'Bash']);
    await t.type('start the short job');
    await t.press('Enter');
    await t.waitFor((s) => s.includes('started the short job') && s.includes('1 shell running'));
    // Nothing else redraws the screen now: the shell's end alone must take the count away.
    const screen = await t.waitFor((s) => READY(s) && !s.includes('shell running'), { timeoutMs: 20_000 });
    expect(screen).toMatch(/default mode · context \d+% · \$\d+\.\d{4}\s*$/);
  });
});
