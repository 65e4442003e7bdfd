/**
 * Resizing tmux while the live region changes (issue 14: "resizing reflows without jumping;
 * finished messages go to the scrollback once and are never redrawn"). tmux rewraps its screen
 * at once but tells the program a second resize up to 250 ms later, so two quick narrowings
 * leave frames drawn for the old width on a screen already rewrapped. Read with the scrollback
 * (capture-pane -J joins the rows a width wrapped), every word of the answer shows exactly once
 * and nothing of the live region (spinner, input box, prompt) stays behind. Known gap (see
 * docs/ARCHITECTURE.md, the frame writer): on a heavily loaded machine tmux can rewrap a first
 * resize a frame before it sets the pty's size, and a paragraph settling in that frame is garbled.
 */
import { describe, expect, it } from 'vitest';
import { useTuiFixture } from './fixture';
import type { Terminal } from './tmux';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const fx = useTuiFixture('yoke-resize-');

const paragraph = (n: number) =>
  `Paragraph ${n} begins ${Array.from({ length: 18 }, (_, i) => `w${n}x${i}`).join(' ')} ends ${n}.`;
const answer = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => paragraph(from + i)).join('\n\n');

/** How often each word of paragraphs from..to, and each given token, shows. */
function counts(screen: string, from: number, to: number, tokens: string[]): Map<string, number> {
  const seen = new Map<string, number>();
  const words = screen.match(/\bw\d+x\d+\b|\bends \d+\./g) ?? [];
  for (const word of words) seen.set(word, (seen.get(word) ?? 0) + 1);
  const result = new Map<string, number>();
  for (let n = from; n <= to; n++) {
    for (let i = 0; i < 18; i++) result.set(`w${n}x${i}`, seen.get(`w${n}x${i}`) ?? 0);
    result.set(`ends ${n}.`, seen.get(`ends ${n}.`) ?? 0);
  }
  for (const token of tokens) result.set(token, screen.split(token).length - 1);
  return result;
}

/** Every word of the answer once, the given tokens as often as said; the screen when it fails. */
async function expectOnce(t: Terminal, from: number, to: number, tokens: Record<string, number>) {
  const screen = await t.screen(3000);
  const wrong = [...counts(screen, from, to, Object.keys(tokens))].filter(
    ([token, n]) => n !== (tokens[token] ?? 1),
  );
  expect(wrong, `shown a wrong number of times, as [token, times]; the screen:\n${screen}`).toEqual([]);
}

/** The answer is over: the spinner has left the screen and the last words show. */
const finished = (last: string) => (s: string) => s.includes(last) && !s.includes('esc to interrupt');

const REGION = { '╭': 1, 'claude-sonnet': 1, 'esc to interrupt': 0 };

describe.skipIf(!hasTmux)('resizing while the live region changes', { timeout: 120_000 }, () => {
  // The known gap (header): under heavy load a settle can land in the frame tmux drew before it
  // set the pty's size, and that one run garbles a paragraph. A regression fails every try; the
  // gap, seen in about 1 run in 7 at load 8-12, fails three tries in a row far more rarely.
  it('narrowing twice while an answer streams', { retry: 2 }, async () => {
    fx.server.reset({
      chunkDelayMs: 3,
      turns: [{ reply: { content: [{ type: 'text', text: `${answer(1, 16)}\n\nall-done` }] } }],
    });
    const t = await fx.openReady([], { width: 100, height: 30 });
    await t.type('tell me a long story');
    await t.press('Enter');
    await t.waitFor('w4x10', { history: 3000 });
    await t.resize(60, 30);
    await t.waitFor('w7x3', { history: 3000 });
    await t.resize(45, 30);
    await t.waitFor(finished('all-done'), { timeoutMs: 60_000, history: 0 });
    await expectOnce(t, 1, 16, { ...REGION, 'tell me a long story': 1, 'all-done': 1 });
  });

  it('narrowing then widening while an answer streams', { retry: 2 }, async () => {
    fx.server.reset({
      chunkDelayMs: 3,
      turns: [{ reply: { content: [{ type: 'text', text: `${answer(1, 16)}\n\nall-done` }] } }],
    });
    const t = await fx.openReady([], { width: 100, height: 30 });
    await t.type('tell me a long story');
    await t.press('Enter');
    await t.waitFor('w4x10', { history: 3000 });
    await t.resize(55, 30);
    await t.waitFor('w7x3', { history: 3000 });
    await t.resize(100, 30);
    await t.waitFor(finished('all-done'), { timeoutMs: 60_000, history: 0 });
    await expectOnce(t, 1, 16, { ...REGION, 'tell me a long story': 1, 'all-done': 1 });
  });

  it("narrowing to 30 columns while a tool's output shows", async () => {
    const command = 'for i in $(seq 1 150); do echo "out-line-$i"; sleep 0.05; done; echo tool-finished';
    fx.server.reset({
      chunkDelayMs: 3,
      turns: [
        {
          reply: {
            content: [
              { type: 'text', text: answer(1, 3) },
              { type: 'tool_use', name: 'Bash', input: { command } },
            ],
          },
        },
        { reply: { content: [{ type: 'text', text: `${answer(4, 8)}\n\nall-done` }] } },
      ],
    });
    const t = await fx.openReady(['--allowedTools', `Bash(${command})`], { width: 100, height: 30 });
    await t.type('run the printer');
    await t.press('Enter');
    await t.waitFor(/out-line-[2-9]\d\b/, { history: 0 });
    await t.resize(60, 30);
    await t.resize(30, 30);
    await t.waitFor(finished('all-done'), { timeoutMs: 60_000, history: 0 });
    await expectOnce(t, 1, 8, { ...REGION, 'run the printer': 1, 'all-done': 1, 'Bash(for i in': 1 });
  });

  // The question stands in a tall region. tmux rewraps keeping the screen's bottom row where it
  // is, blank rows included: a region whose rows, rewrapped, no longer fit above the rows below
  // it loses its top rows to the scrollback before Yoke hears of the resize, out of any program's
  // reach short of clearing the scrollback. The terminal is tall enough here for it to fit.
  it('a resize while the permission question is open', async () => {
    fx.server.reset({
      chunkDelayMs: 3,
      turns: [
        { reply: { content: [{ type: 'text', text: answer(1, 8) }] } },
        {
          reply: {
            content: [
              { type: 'text', text: answer(9, 10) },
              { type: 'tool_use', name: 'Bash', input: { command: 'touch asked.txt' } },
            ],
          },
        },
        { reply: { content: [{ type: 'text', text: `${answer(11, 12)}\n\nall-done` }] } },
      ],
    });
    const t = await fx.openReady([], { width: 100, height: 40 });
    // A screen full of a first answer, as mid-session.
    await t.type('tell me a story');
    await t.press('Enter');
    await t.waitFor(finished('ends 8.'), { history: 0 });
    await t.type('now make a file');
    await t.press('Enter');
    await t.waitFor("don't ask again", { history: 0 });
    await t.resize(60, 40);
    await t.resize(80, 40);
    await t.waitFor((s) => /╭─{78}╮/.test(s) && s.includes("don't ask again"), { history: 0 });
    await t.press('1');
    await t.waitFor(finished('all-done'), { timeoutMs: 60_000, history: 0 });
    await expectOnce(t, 1, 12, {
      ...REGION,
      'tell me a story': 1,
      'now make a file': 1,
      'Bash(touch asked.txt)': 1,
      "don't ask again": 0,
      'all-done': 1,
    });
  });
});
