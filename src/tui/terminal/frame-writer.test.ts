/** The frame writer drawing the live region: diffs of rows, the scrollback above it, a region taller than the screen. */
import { describe, expect, it } from 'vitest';
import { VirtualScreen } from '../testing/virtual-screen';
import { createFrameWriter } from './frame-writer';
import { rewritableCut } from './text-width';

/** A writer on a virtual screen, recording each write. */
function setUp(columns = 40, rows = 12) {
  const screen = new VirtualScreen(columns, rows);
  const writes: string[] = [];
  const writer = createFrameWriter({
    isTTY: true,
    rows,
    write: (data: string) => {
      writes.push(data);
      screen.write(data);
    },
  });
  const frame = (rows: readonly string[]) => `${rows.join('\n')}\n`;
  const last = () => writes[writes.length - 1] ?? '';
  return { screen, writer, frame, writes, last };
}

const BOX = ['╭────────╮', '│ > hi   │', '╰────────╯', 'model · default mode'];

describe('frame writer', () => {
  it('appends a streamed word by writing the word, not the line or the rows below', () => {
    const { screen, writer, frame, last } = setUp();
    writer(frame(['', '  The answer', '', ...BOX]));
    writer(frame(['', '  The answer grows', '', ...BOX]));
    expect(last()).toContain(' grows');
    expect(last()).not.toContain('The answer');
    expect(last()).not.toContain('model');
    expect(screen.all()).toEqual(['', '  The answer grows', '', ...BOX]);
    // Between frames the cursor rests at the region's top-left: a terminal that rewraps keeps it
    // there, so the next frame finds the top whatever width wrapped the rows below.
    expect(screen.cursor).toEqual({ row: 0, col: 0 });
  });

  it('erases a row that got shorter whole, leaving no old characters behind', () => {
    const { screen, writer, frame, last } = setUp();
    writer(frame(['status: working hard', 'x']));
    writer(frame(['status: done', 'x']));
    expect(last()).toContain('\x1b[2K');
    expect(last()).not.toContain('x');
    expect(screen.all()).toEqual(['status: done', 'x']);
  });

  it('rewrites a key typed in the input box without the rest of the box row', () => {
    const { screen, writer, frame, last } = setUp();
    const row = (text: string) =>
      `\x1b[90m│\x1b[39m > ${text}\x1b[7m \x1b[27m${' '.repeat(20 - text.length)}\x1b[90m│\x1b[39m`;
    writer(frame(['╭──────────────────────────╮', row('ab'), '╰──────────────────────────╯']));
    writer(frame(['╭──────────────────────────╮', row('abc'), '╰──────────────────────────╯']));
    expect(last()).not.toContain('│');
    expect(last()).toContain('c');
    expect(screen.all()[1]).toBe(`│ > abc ${' '.repeat(17)}│`);
    writer(frame(['╭──────────────────────────╮', row('a'), '╰──────────────────────────╯']));
    expect(screen.all()[1]).toBe(`│ > a ${' '.repeat(19)}│`);
  });

  it('cuts a styled row only where no colour is open', () => {
    expect(rewritableCut('ab\x1b[31mcd\x1b[39mef', 14)).toEqual({ length: 14, width: 4 });
    expect(rewritableCut('ab\x1b[31mcd\x1b[39mef', 8)).toEqual({ length: 2, width: 2 });
    // Wide characters end the measurable part: their width is the terminal's business.
    expect(rewritableCut('ab漢字cd')).toEqual({ length: 2, width: 2 });
  });

  it('moves the rows below a growing paragraph with insert-line instead of redrawing them', () => {
    const { screen, writer, frame, last } = setUp();
    writer(frame(['', '  first line of a paragraph', '', ...BOX]));
    writer(frame(['', '  first line of a paragraph', '  and its second', '', ...BOX]));
    expect(last()).toContain('\x1b[L');
    expect(last()).not.toContain('╭');
    expect(last()).not.toContain('model');
    expect(screen.all()).toEqual(['', '  first line of a paragraph', '  and its second', '', ...BOX]);
  });

  it('deletes rows that left the middle of the region and erases rows below a shorter one', () => {
    const { screen, writer, frame } = setUp();
    writer(frame(['a', 'b', 'c', ...BOX]));
    writer(frame(['a', ...BOX]));
    expect(screen.all()).toEqual(['a', ...BOX]);
    writer(frame(['a', 'question?']));
    expect(screen.all()).toEqual(['a', 'question?']);
  });

  it('leaves scrollback lines that the region already shows where they are', () => {
    const { screen, writer, frame, last } = setUp();
    writer(frame(['', '  Paragraph one.', '', '  Paragraph tw', '', ...BOX]));
    writer.writeAbove('\n  Paragraph one.\n\n', frame(['  Paragraph two.', '', ...BOX]));
    expect(last()).not.toContain('Paragraph one');
    expect(last()).not.toContain('model');
    expect(screen.all()).toEqual(['', '  Paragraph one.', '', '  Paragraph two.', '', ...BOX]);
    writer(frame(['  Paragraph two. More', '', ...BOX]));
    expect(screen.all()).toEqual(['', '  Paragraph one.', '', '  Paragraph two. More', '', ...BOX]);
  });

  it('finishes a settling paragraph in place when its last words arrive with the settle', () => {
    const { screen, writer, frame, last } = setUp();
    writer(frame(['', '  Paragraph one is stream', '', '⠋ Working…', ...BOX]));
    writer.writeAbove('\n  Paragraph one is streamed.\n\n', frame(['  Next', '', '⠋ Working…', ...BOX]));
    expect(last()).toContain('ed.');
    expect(last()).not.toContain('Paragraph one');
    expect(last()).not.toContain('model');
    expect(screen.all()).toEqual([
      '',
      '  Paragraph one is streamed.',
      '',
      '  Next',
      '',
      '⠋ Working…',
      ...BOX,
    ]);
  });

  it('prints scrollback taller than the screen above the region, whole', () => {
    const { screen, writer, frame } = setUp(40, 8);
    writer(frame(['', ...BOX]));
    const long = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
    writer.writeAbove(frame(long), frame(['', ...BOX]));
    expect(screen.all()).toEqual([...long, '', ...BOX]);
  });

  it('prints scrollback the region did not show above it, once', () => {
    const { screen, writer, frame } = setUp();
    writer(frame(['', ...BOX]));
    writer.writeAbove('\n> a prompt\n', frame(['', '⠋ Working…', '', ...BOX]));
    expect(screen.all()).toEqual(['', '> a prompt', '', '⠋ Working…', '', ...BOX]);
    expect(screen.all().filter((line) => line === '> a prompt')).toHaveLength(1);
  });

  it('keeps the screen equal to a full redraw through a long streamed answer that scrolls', () => {
    // A paragraph streams word by word; every few words it settles into the scrollback, as the
    // REPL does. After every frame the screen must read as scrollback + region, drawn at once.
    const { screen, writer, frame, writes } = setUp(30, 10);
    const scrollback: string[] = [];
    let paragraph: string[] = [];
    let settled = 0;
    const region = () => {
      const rows = paragraph.length ? wrap(paragraph.join(' '), 28).map((row) => `  ${row}`) : [];
      return [...(settled === 0 ? [''] : []), ...rows, '', '⠋ Working…', ...BOX];
    };
    writer(frame(region()));
    for (let word = 1; word <= 120; word++) {
      paragraph.push(`w${word}`);
      if (word % 9 === 0) {
        // The paragraph is finished: its rows (and the blank line after it) become scrollback.
        const rows = [
          ...(settled === 0 ? [''] : []),
          ...wrap(paragraph.join(' '), 28).map((r) => `  ${r}`),
          '',
        ];
        scrollback.push(...rows);
        paragraph = [];
        settled++;
        writer.writeAbove(frame(rows), frame(region()));
      } else {
        writer(frame(region()));
      }
      expect(screen.all()).toEqual([...scrollback, ...region()]);
    }
    // Whole words and cursor moves: well under the 9 rows of the region per frame.
    const bytes = writes.slice(1).reduce((sum, w) => sum + w.length, 0);
    expect(bytes / 120).toBeLessThan(40);
  });

  it('shows the bottom of a region taller than the screen, with no copy of it in the scrollback', () => {
    const { screen, writer, frame, writes } = setUp(40, 6);
    writer(frame(['top', 'bottom']));
    writes.length = 0;
    const tall = ['top', 'one', 'two', 'three', 'four', 'five', 'six', 'bottom'];
    writer(frame(tall));
    writer(frame([...tall.slice(0, 7), 'bottom, changed']));
    // Five rows and the cursor's: the last five of the region; the rows above them not drawn.
    expect(screen.visible()).toEqual(['three', 'four', 'five', 'six', 'bottom, changed', '']);
    expect(screen.scrollback).toEqual([]);
    expect(writes.join('')).not.toMatch(/top|one|two/);
    // Back within the screen, the region is whole again.
    writer(frame(['top', 'bottom']));
    expect(screen.all()).toEqual(['top', 'bottom']);
  });

  it('settles a paragraph taller than the screen into the scrollback once, leaving no copy of the region', () => {
    // The region fills the screen from its top row: erasing it from there must not be a
    // whole-screen clear, which tmux answers by scrolling the screen into the history.
    const { screen, writer, frame } = setUp(40, 8);
    const live = ['', '⠋ Working…', '', ...BOX];
    writer(frame(['> a tall one', ...live]));
    writer.writeAbove(frame(['> a tall one']), frame(live));
    const paragraph: string[] = [];
    for (let i = 1; i <= 12; i++) {
      paragraph.push(`row ${i}`);
      writer(frame(['', ...paragraph, ...live]));
    }
    writer.writeAbove(frame(['', ...paragraph]), frame(['', ...BOX]));
    expect(screen.all()).toEqual(['> a tall one', '', ...paragraph, '', ...BOX]);
  });

  it('keeps the cursor where Ink puts it in a region taller than the screen, and hides it when that row is not shown', () => {
    const { screen, writer, frame, last } = setUp(40, 6);
    const tall = ['1', '2', '3', '4', '5', '6', '7', '8'];
    writer.setCursorPosition({ x: 2, y: 7 });
    writer(frame(tall));
    expect(screen.cursor).toEqual({ row: 4, col: 2 });
    writer.setCursorPosition({ x: 0, y: 0 });
    writer(frame(tall));
    expect(last()).not.toContain('\x1b[?25h');
  });

  it('draws everything again after a clear, whatever Ink syncs', () => {
    const { screen, writer, frame } = setUp();
    writer(frame(['one', 'two']));
    writer.clear();
    writer.sync(frame(['one', 'two']));
    expect(screen.all()).toEqual([]);
    writer(frame(['one', 'two']));
    expect(screen.all()).toEqual(['one', 'two']);
  });

  it("takes no row for Ink's frame of nothing: what comes next starts where the region did", () => {
    const { screen, writer, frame } = setUp();
    screen.write('before\n');
    writer(frame(['a dialog', 'its question']));
    writer.clear();
    // Ink's last frame at unmount, of a tree rendered empty: its empty output plus a newline.
    writer('\n');
    writer.done();
    expect(screen.all()).toEqual(['before']);
    expect(screen.cursor).toEqual({ row: 1, col: 0 });
  });

  it('ends below the region and shows the cursor when done', () => {
    const { screen, writer, frame, last } = setUp();
    writer(frame(['one', 'two']));
    writer.done();
    expect(last()).toContain('\x1b[?25h');
    expect(screen.cursor).toEqual({ row: 2, col: 0 });
  });

  it('opens and closes a box above the input box whose border rows are the same text (colours off)', () => {
    // The /tasks sequence of the colourless stale-row report, frame by frame as Ink gives it: the
    // writer keeps its picture here (the stale row came from stderr written behind its back, see
    // stderr-capture.ts); identical border rows of two boxes must not confuse the row moves.
    const { screen, writer, frame } = setUp(60, 24);
    const top = `╭${'─'.repeat(58)}╮`;
    const bottom = `╰${'─'.repeat(58)}╯`;
    const line = (text: string) => `│ ${text.padEnd(56)} │`;
    const input = [top, line('>'), bottom, '  model · default mode · 1 shell running'];
    const view = (status: string, note: string[]) => [
      top,
      line(`Background tasks (${status})`),
      line(''),
      line(`❯ bash_1  shell  dev server · ${status === '1 running' ? 'running' : 'killed'}`),
      ...note.map(line),
      line('↑/↓ to choose · Esc to close'),
      bottom,
      '',
    ];
    const frames = [
      ['  started the server', '', ...input],
      ['  started the server', '', ...view('1 running', []), ...input],
      ['  started the server', '', ...view('1 running', ['Stopping bash_1…']), ...input],
      ['  started the server', '', ...view('0 running', ['Stopping bash_1…']), ...input],
      ['  started the server', '', ...view('0 running', ['Stopped bash_1.']), ...input],
      ['  started the server', '', top, line('>'), bottom, '  model · default mode'],
    ];
    for (const rows of frames) {
      writer(frame(rows));
      expect(screen.all()).toEqual(rows);
    }
  });
});

function wrap(text: string, width: number): string[] {
  const rows: string[] = [];
  let row = '';
  for (const word of text.split(' ')) {
    if (row && row.length + 1 + word.length > width) {
      rows.push(row);
      row = word;
    } else row = row ? `${row} ${word}` : word;
  }
  if (row) rows.push(row);
  return rows;
}
