/**
 * What the REPL writes to the terminal beyond the screen's text (tmux, against the mock model
 * server; the bytes recorded with pipe-pane): when a turn ends or a permission question waits, a
 * bell and, in a terminal that shows them, an OSC 9 desktop notification (wrapped for tmux), and
 * the Notification hooks run either way; with NO_COLOR no colour is written at all.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempProject } from '../helpers';
import { READY, useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const fx = useTuiFixture('yoke-terminal-output-');

/** Polls `read` until `test` holds (a hook runs in its own process, a pipe-pane lags the screen). */
async function eventually(read: () => Promise<string>, test: (text: string) => boolean): Promise<string> {
  const deadline = Date.now() + 15_000;
  let last = '';
  while (Date.now() < deadline) {
    last = await read().catch(() => '');
    if (test(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never came true; last read:\n${last}`);
}

/** The SGR parameters that choose a colour: foreground, background, 256-colour and RGB. */
function colourCodes(bytes: string): string[] {
  const found: string[] = [];
  for (const match of bytes.matchAll(/\x1b\[([0-9;]*)m/g)) {
    const params = (match[1] ?? '').split(';').map(Number);
    for (const p of params) {
      if (p === 38 || p === 48) {
        found.push(match[0]);
        break;
      }
      if ((p >= 30 && p <= 37) || (p >= 40 && p <= 47) || (p >= 90 && p <= 97) || (p >= 100 && p <= 107)) {
        found.push(match[0]);
        break;
      }
    }
  }
  return found;
}

describe.skipIf(!hasTmux)("the REPL's bytes in tmux", { timeout: 120_000 }, () => {
  it('a turn that ends and a question that waits ring the bell, send OSC 9 and run the Notification hook', async () => {
    fx.server.reset([
      { reply: { content: [{ type: 'text', text: 'first-turn-over' }] } },
      { reply: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch asked.txt' } }] } },
      { reply: { content: [{ type: 'text', text: 'second-turn-over' }] } },
    ]);
    const log = join(await tempProject('yoke-notify-'), 'notifications.jsonl');
    const hook = { type: 'command', command: `cat >> '${log}'; echo >> '${log}'` };
    const settings = { hooks: { Notification: [{ hooks: [hook] }] } };
    // WezTerm shows OSC 9; inside tmux it goes through tmux's DCS passthrough.
    const t = await fx.open(['--settings', JSON.stringify(settings)], {
      env: { ...fx.env(), TERM_PROGRAM: 'WezTerm' },
    });
    await t.waitFor(READY, { timeoutMs: 45_000 });
    const bytesFile = join(fx.home, 'notify-pane-bytes');
    await t.record(bytesFile);
    const bytes = () => readFile(bytesFile, 'utf8');
    await t.type('say something');
    await t.press('Enter');
    await t.waitFor('first-turn-over');
    const ended = '\x1bPtmux;\x1b\x1b]9;The turn ended\x07\x1b\\\x07';
    await eventually(bytes, (text) => text.includes(ended));
    await eventually(
      () => readFile(log, 'utf8'),
      (text) => text.includes('"notification_type":"idle_prompt"'),
    );

    await t.type('touch a file');
    await t.press('Enter');
    await t.waitFor("don't ask again");
    const waiting = '\x1b]9;Yoke is waiting for your permission\x07';
    await eventually(bytes, (text) => text.replaceAll('\x1b\x1b', '\x1b').includes(waiting));
    const events = await eventually(
      () => readFile(log, 'utf8'),
      (text) => text.includes('"notification_type":"permission_prompt"'),
    );
    const payload = JSON.parse(events.split('\n').find((line) => line.includes('permission_prompt')) ?? '{}');
    expect(payload).toMatchObject({
      hook_event_name: 'Notification',
      message: 'Yoke is waiting for your permission',
      title: 'Yoke',
    });
    await t.press('3');
    await t.waitFor('second-turn-over');
  });

  it.each([
    ['with colours', {}, true],
    ['with NO_COLOR', { NO_COLOR: '1' }, false],
  ])('writes colour only when it may (%s)', async (_, colours, expectColour) => {
    const file = join(fx.cwd, `coloured-${expectColour}.ts`);
    fx.server.reset([
      {
        reply: {
          content: [
            { type: 'text', text: 'Writing **it** with `code`:' },
            { type: 'tool_use', name: 'Write', input: { file_path: file, content: 'export const a = 1;\n' } },
          ],
        },
      },
      { reply: { content: [{ type: 'text', text: '```ts\nconst written = true;\n```\n\nwrite-done' }] } },
    ]);
    const t = await fx.open(['--permission-mode', 'acceptEdits'], { env: { ...fx.env(), ...colours } });
    await t.waitFor((s) => /╰─+╯\n\s+\S+ · ⏵⏵ accept edits on/.test(s), { timeoutMs: 45_000 });
    const bytesFile = join(fx.home, `colour-pane-bytes-${expectColour}`);
    await t.record(bytesFile);
    await t.type('write the file');
    await t.press('Enter');
    await t.waitFor((s) => s.includes('write-done') && !s.includes('esc to interrupt'));
    const written = await eventually(
      () => readFile(bytesFile, 'utf8'),
      (text) => text.includes('write-done'),
    );
    // Bold and dim stay under NO_COLOR (it asks only that colour be left out).
    expect(written).toMatch(/\x1b\[[0-9;]*m/);
    expect(colourCodes(written).length > 0).toBe(expectColour);
  });
});
