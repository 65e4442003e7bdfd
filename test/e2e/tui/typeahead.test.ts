/**
 * A permission question that opens while the user types the next prompt: the rest of that burst
 * of typing — its digits and its Enter — goes to the input line (the prompt is queued), never to
 * the question, whose default answer is "Yes" (src/tui/input/keyboard.ts). The typing here is a
 * person's: a key every 100 ms, on and on, while the question opens.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { fileExists } from '../helpers';
import { useTuiFixture } from './fixture';
import { type Terminal, tmuxAvailable } from './tmux';

const fx = useTuiFixture('yoke-typeahead-');

/** Types `x` every 100 ms until stopped; `then` is typed at the same pace before it stops. */
function keepTyping(t: Terminal) {
  const after: string[] = [];
  let stopping = false;
  const done = (async () => {
    while (!stopping || after.length > 0) {
      const next = stopping ? (after.shift() as string) : 'x';
      await (next === 'Enter' ? t.press('Enter') : t.type(next));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    finishWith: (...keys: string[]) => {
      after.push(...keys);
      stopping = true;
      return done;
    },
  };
}

it.skipIf(!tmuxAvailable())(
  'keys typed ahead as the question opens (a digit, Enter) queue the prompt and answer nothing',
  { timeout: 120_000, retry: 2 },
  async () => {
    fx.server.reset([
      { reply: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'sleep 1' } }] } },
      {
        reply: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch typed-ahead.txt' } }] },
      },
      { reply: { content: [{ type: 'text', text: 'done-after-the-question' }] } },
    ]);
    const t = await fx.openReady(['--allowedTools', 'Bash(sleep 1)'], { width: 100, height: 30 });
    await t.type('go on');
    await t.press('Enter');
    await t.waitFor('● Bash(sleep 1)');
    const typing = keepTyping(t);
    await t.waitFor("don't ask again", { timeoutMs: 45_000 });
    await typing.finishWith('1', 'Enter');
    // The prompt typed ahead is queued, ending in the digit; the question is still open.
    const screen = await t.waitFor((s) => /⧗ queued: x+1/.test(s));
    expect(screen).toContain("don't ask again");
    expect(await fileExists(join(fx.cwd, 'typed-ahead.txt'))).toBe(false);
    // Answered on purpose now: No.
    await t.press('3');
    await t.waitFor('done-after-the-question');
    expect(await fileExists(join(fx.cwd, 'typed-ahead.txt'))).toBe(false);
    expect(JSON.stringify(fx.server.requests.at(-1)?.body)).toMatch(/x+1/);
  },
);
