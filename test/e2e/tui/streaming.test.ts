/**
 * A long streamed answer in a real terminal (tmux): the REPL draws only what changes (the frame
 * writer appends words, moves the rows below with insert-line, and leaves finished paragraphs
 * where they are as scrollback). What a person scrolls back through must still read exactly
 * like the answer: every paragraph once, in order, whole, and no stale copy of the live rows
 * (spinner, input box, status line) left between them.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const fx = useTuiFixture('yoke-stream-');

const PARAGRAPHS = 24;
/** Paragraphs long enough to wrap at 80 columns, so rows are inserted as they grow. */
const paragraph = (n: number) =>
  `Paragraph ${n} begins ${Array.from({ length: 18 }, (_, i) => `w${n}x${i}`).join(' ')} ends ${n}.`;

describe.skipIf(!hasTmux)('a streamed answer in tmux', { timeout: 120_000 }, () => {
  it('lands in the scrollback whole, in order and once, with nothing of the live rows between', async () => {
    const answer = Array.from({ length: PARAGRAPHS }, (_, i) => paragraph(i + 1)).join('\n\n');
    fx.server.reset({
      chunkDelayMs: 8,
      turns: [{ reply: { content: [{ type: 'text', text: `${answer}\n\nall-done` }] } }],
    });
    const t = await fx.openReady([], { width: 80, height: 24 });
    await t.type('tell me a long story');
    await t.press('Enter');
    const screen = await t.waitFor((s) => s.includes('all-done') && !s.includes('esc to interrupt'), {
      history: 2000,
      timeoutMs: 60_000,
    });
    const lines = screen.split('\n');
    // The answer's rows, from its first paragraph to its last word; the REPL wraps each paragraph
    // itself, so a paragraph is its rows up to the next blank line, joined again.
    const start = lines.findIndex((line) => line.includes('Paragraph 1 '));
    const end = lines.findIndex((line) => line.includes('all-done'));
    expect(start).toBeGreaterThan(0);
    const paragraphs = lines
      .slice(start, end + 1)
      .map((line) => line.trim())
      .join('\n')
      .split('\n\n')
      .map((block) => block.split('\n').join(' '));
    expect(paragraphs).toEqual([
      ...Array.from({ length: PARAGRAPHS }, (_, i) => paragraph(i + 1)),
      'all-done',
    ]);
    expect(lines.filter((line) => line.includes('tell me a long story'))).toHaveLength(1);
    // The live rows were drawn below the answer all along; none of them may stay behind in it.
    expect(screen).not.toContain('Working…');
    expect(lines.filter((line) => line.includes('╭'))).toHaveLength(1);
    expect(lines.filter((line) => line.includes('default mode'))).toHaveLength(1);
  });

  it('streams a paragraph taller than the terminal without clearing the screen or printing the history again', async () => {
    // One paragraph (no blank line to settle at) of ~20 rows at 60 columns, in a 12-row terminal:
    // the live region is taller than the screen until the answer ends.
    const words = Array.from({ length: 150 }, (_, i) => `t${i}`).join(' ');
    fx.server.reset({
      chunkDelayMs: 4,
      turns: [
        { reply: { content: [{ type: 'text', text: 'earlier-answer' }] } },
        { reply: { content: [{ type: 'text', text: `Tall begins ${words} tall-ends.` }] } },
      ],
    });
    const t = await fx.openReady([], { width: 60, height: 12 });
    await t.type('first');
    await t.press('Enter');
    await t.waitFor('earlier-answer');
    const written = join(fx.home, 'pane-output');
    await t.record(written);
    await t.type('a tall one');
    await t.press('Enter');
    const screen = await t.waitFor((s) => s.includes('tall-ends.') && !s.includes('esc to interrupt'), {
      history: 500,
    });
    // Ink's own answer to a region that tall cleared the screen and the scrollback (ESC[2J,
    // ESC[3J) and printed every earlier line again, on every frame.
    const bytes = await readFile(written, 'utf8');
    expect(bytes).not.toContain('\x1b[2J');
    expect(bytes).not.toContain('\x1b[3J');
    expect(bytes.split('earlier-answer')).toHaveLength(1);
    // Frames that rewrite several rows come in synchronized-output marks (DEC 2026), each closed
    // (the last one's end may still be in the pipe to the recording).
    const opened = bytes.split('\x1b[?2026h').length - 1;
    expect(opened).toBeGreaterThan(0);
    expect(bytes.split('\x1b[?2026l').length - 1).toBeGreaterThanOrEqual(opened - 1);
    const lines = screen.split('\n').map((line) => line.trim());
    expect(lines.filter((line) => line.includes('earlier-answer'))).toHaveLength(1);
    const start = lines.findIndex((line) => line.startsWith('Tall begins'));
    const end = lines.findIndex((line) => line.endsWith('tall-ends.'));
    expect(start).toBeGreaterThan(0);
    expect(lines.slice(start, end + 1).join(' ')).toBe(`Tall begins ${words} tall-ends.`);
    expect(lines.filter((line) => line.includes('╭'))).toHaveLength(1);
  });
});
