/**
 * A prompt of about 10,000 typed characters in an 80×24 terminal (tmux): the input box shows a
 * window of its rows around the cursor, so the frame never grows taller than the screen (where
 * it would scroll, leave copies of the text in the scrollback, and lose the cursor off the top).
 */
import { describe, expect, it } from 'vitest';
import { useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const fx = useTuiFixture('yoke-long-input-');

const WORDS = 1700;
const text = Array.from({ length: WORDS }, (_, i) => `w${String(i).padStart(4, '0')}`).join(' ');

describe.skipIf(!hasTmux)('a very long typed prompt in tmux', { timeout: 120_000 }, () => {
  it('stays in a window that follows the cursor, on screen, and is sent whole', async () => {
    fx.server.reset([{ reply: { content: [{ type: 'text', text: 'got-the-long-one' }] } }]);
    const t = await fx.openReady([], { width: 80, height: 24 });
    for (let at = 0; at < text.length; at += 400) await t.type(text.slice(at, at + 400));
    const last = `w${WORDS - 1}`;
    let screen = await t.waitFor((s) => s.includes(last) && /↑ \d+ more rows above/.test(s), { history: 0 });
    // The whole box and the status line below it are on screen, and at most a third of it.
    const rows = screen.split('\n');
    const top = rows.findIndex((row) => row.includes('╭'));
    const bottom = rows.findIndex((row) => row.includes('╰'));
    expect(top).toBeGreaterThanOrEqual(0);
    expect(bottom - top + 1).toBeLessThanOrEqual(10);
    expect(rows[bottom + 1]).toContain('default mode');

    await t.press('C-a');
    screen = await t.waitFor((s) => /> w0000 w0001/.test(s) && /↓ \d+ more rows below/.test(s), {
      history: 0,
    });
    expect(screen).not.toContain('more rows above');
    // Seven rows down, in a window of six: the window has moved by two.
    await t.press('Down', 'Down', 'Down', 'Down', 'Down', 'Down', 'Down');
    await t.waitFor((s) => /↑ 2 more rows above.*\n.*w0024 /.test(s), { history: 0 });
    await t.press('End');
    await t.waitFor((s) => s.includes(last) && !s.includes('more rows below'), { history: 0 });

    // Nothing of the text was pushed into the scrollback while it was typed and walked.
    const history = await t.screen(1000);
    expect(history.split('\n').filter((row) => row.includes('w0800'))).toHaveLength(0);

    await t.press('Enter');
    await t.waitFor('got-the-long-one');
    const body = JSON.stringify(fx.server.requests.at(-1)?.body ?? {});
    expect(body).toContain(text);
  });
});
