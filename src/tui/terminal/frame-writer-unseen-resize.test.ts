/**
 * The frame writer while tmux has rewrapped the screen and not yet said so: it applies a pane's
 * resizes to the pty at most every 250 ms, so a second narrowing soon after a first is on screen
 * (rewrapped) while the program still draws frames, and settles paragraphs, for the old width.
 * The screen here is Yoke's model of a terminal (VirtualScreen), rewrapping as tmux does.
 */
import { describe, expect, it } from 'vitest';
import { VirtualScreen } from '../testing/virtual-screen';
import { createFrameWriter } from './frame-writer';

/** A paragraph as Ink lays it out: words wrapped at the width, two columns in. */
function wrap(text: string, width: number): string[] {
  const rows: string[] = [];
  let row = '';
  for (const word of text.split(' ')) {
    if (row !== '' && 2 + row.length + 1 + word.length > width) {
      rows.push(`  ${row}`);
      row = word;
    } else row = row === '' ? word : `${row} ${word}`;
  }
  if (row !== '') rows.push(`  ${row}`);
  return rows;
}

const paragraph = (n: number) =>
  `Paragraph ${n} begins ${Array.from({ length: 12 }, (_, i) => `q${n}x${i}z`).join(' ')} ends ${n}.`;

/** The REPL's live region under a streaming answer: the paragraph so far, the spinner, the box. */
function region(streamed: string, width: number): string {
  const rows = [
    ...(streamed === '' ? [] : wrap(streamed, width)),
    '',
    `⠙ Working… (0s · ↓ 99 tokens · esc to interrupt)`.slice(0, width),
    '',
    `╭${'─'.repeat(width - 2)}╮`,
    `│ >${' '.repeat(width - 5)}│`,
    `╰${'─'.repeat(width - 2)}╯`,
    '  model · default mode',
  ];
  return `${rows.join('\n')}\n`;
}

/**
 * A streamed answer on a tmux-like screen full of history. `silently` rewraps the screen only;
 * `announce` tells the writer (the kernel's size, the resize event) and does what Ink does on
 * it: clears the region when the terminal got narrower, and draws the frame again.
 */
function session(clockStep: number) {
  const screen = new VirtualScreen(60, 24);
  screen.write(Array.from({ length: 23 }, (_, i) => `history ${i}\n`).join(''));
  const listeners: (() => void)[] = [];
  let kernelColumns = 60;
  let now = 0;
  const stream = {
    isTTY: true,
    rows: 24,
    columns: 60,
    write: (data: string) => screen.write(data),
    getWindowSize: (): [number, number] => [kernelColumns, 24],
    on: (_event: 'resize', listener: () => void) => listeners.push(listener),
    off: () => {},
  };
  const writer = createFrameWriter(stream, { reflows: true, clock: () => now });
  let width = 60;
  let streamed = '';
  const draw = () => writer(region(streamed, width));
  return {
    screen,
    /** Streams `words` words of paragraph n, settling it into the scrollback when it is done. */
    stream(n: number, words: number) {
      const all = paragraph(n).split(' ');
      const done = streamed.split(' ').filter(Boolean).length;
      for (const word of all.slice(done, done + words)) {
        now += clockStep;
        streamed = streamed === '' ? word : `${streamed} ${word}`;
        if (streamed === paragraph(n)) {
          const settled = [...wrap(streamed, width), ''].join('\n');
          streamed = '';
          writer.writeAbove(`${settled}\n`, region(streamed, width));
        } else draw();
      }
    },
    silently(columns: number) {
      screen.narrow(columns, { reflow: true });
    },
    announce(columns: number) {
      kernelColumns = columns;
      stream.columns = columns;
      const narrower = columns < width;
      width = columns;
      for (const listener of listeners) listener();
      if (narrower) writer.clear();
      draw();
    },
  };
}

/**
 * Every row ever shown (the scrollback, then the screen) without white space: a rewrapped row may
 * split a word anywhere, and no word is a prefix of another (q1x1z, q1x10z).
 */
const everything = (screen: VirtualScreen) =>
  [...screen.scrollback, ...screen.visible()].join('').replace(/\s+/g, '');

function count(text: string, token: string): number {
  return text.split(token.replace(/\s+/g, '')).length - 1;
}

describe('frame writer: a narrowing on screen before the program is told', () => {
  for (const clockStep of [5]) {
    it(`settles every paragraph once and leaves no copy of the region (${clockStep} ms a word)`, () => {
      const s = session(clockStep);
      s.stream(1, 6);
      s.silently(44);
      s.announce(44);
      s.stream(1, 30);
      s.stream(2, 9);
      // The second narrowing: tmux rewraps now, says so a quarter of a second later; the
      // paragraph settles and the next one starts in between, laid out for 44 columns.
      s.silently(32);
      s.stream(2, 30);
      s.stream(3, 4);
      s.announce(32);
      s.stream(3, 30);
      const text = everything(s.screen);
      for (const n of [1, 2, 3])
        for (let i = 0; i < 12; i++) expect(count(text, `q${n}x${i}z`), `q${n}x${i}z`).toBe(1);
      for (const n of [1, 2, 3]) expect(count(text, `ends ${n}.`), `ends ${n}.`).toBe(1);
      expect(count(text, 'Working')).toBe(1);
      expect(count(text, '╭')).toBe(1);
      expect(count(text, 'default mode')).toBe(1);
      expect(count(text, 'history 22')).toBe(1);
    });
  }
});
