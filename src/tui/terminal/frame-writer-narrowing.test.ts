/**
 * The frame writer when the terminal gets narrower: resized between frames, or while a frame laid
 * out for the old width is on its way; and what it must know of the terminal to redraw after it.
 */
import { describe, expect, it } from 'vitest';
import { VirtualScreen } from '../testing/virtual-screen';
import { createFrameWriter, terminalReflows } from './frame-writer';
import { displayWidth } from './text-width';

describe('frame writer: a terminal that gets narrower', () => {
  /** A writer on a screen that can be narrowed, telling the writer as a TTY does (a resize event). */
  function narrowing(reflow: boolean) {
    const screen = new VirtualScreen(40, 12);
    const listeners: (() => void)[] = [];
    const stream = {
      isTTY: true,
      rows: 12,
      columns: 40,
      write: (data: string) => screen.write(data),
      on: (_event: 'resize', listener: () => void) => listeners.push(listener),
      off: () => {},
    };
    const writer = createFrameWriter(stream, { reflows: reflow });
    const narrow = (columns: number) => {
      screen.narrow(columns, { reflow });
      stream.columns = columns;
      for (const listener of listeners) listener();
    };
    return { screen, writer, narrow };
  }
  const box = (width: number, text = 'hi') => [
    `╭${'─'.repeat(width - 2)}╮`,
    `│ > ${text.padEnd(width - 6)} │`,
    `╰${'─'.repeat(width - 2)}╯`,
    'model · default mode',
  ];
  const frame = (rows: readonly string[]) => `${rows.join('\n')}\n`;
  const shown = (screen: VirtualScreen) => screen.visible().filter((row) => row !== '');

  for (const reflow of [true, false]) {
    it(`redraws the region at the new width and leaves nothing of the old one (${reflow ? 'rewrapping, as tmux' : 'cutting, as xterm'})`, () => {
      const { screen, writer, narrow } = narrowing(reflow);
      screen.write('history one\nhistory two\n');
      writer(frame(box(40)));
      narrow(24);
      writer(frame(box(24)));
      // Rewrapping (tmux keeps the screen's bottom row) pushed the history and the first half of
      // the old box's top row into the scrollback, out of any program's reach; on screen is the
      // new box alone.
      const above = reflow ? [] : ['history one', 'history two'];
      expect(shown(screen)).toEqual([...above, ...box(24)]);
      if (reflow) expect(screen.scrollback).toEqual(['history one', 'history two', `╭${'─'.repeat(23)}`]);
      // The next frames diff against what is really on screen.
      writer(frame(box(24, 'hit')));
      expect(shown(screen)).toEqual([...above, ...box(24, 'hit')]);
    });
  }
});

describe('frame writer: a frame in flight while the terminal gets narrower', () => {
  /**
   * tmux rewraps the pane the moment it is resized; a frame laid out for the old width may still
   * reach it before the resize signal reaches Yoke (`silently`: the screen is narrower, the
   * stream's size and its resize event not yet). `kernelSize`: the stream answers getWindowSize
   * with the new size at once, as a TTY does.
   */
  function racing(kernelSize: boolean) {
    const screen = new VirtualScreen(40, 24);
    const listeners: (() => void)[] = [];
    let kernelColumns = 40;
    const stream = {
      isTTY: true,
      rows: 24,
      columns: 40,
      write: (data: string) => screen.write(data),
      on: (_event: 'resize', listener: () => void) => listeners.push(listener),
      off: () => {},
      ...(kernelSize ? { getWindowSize: (): [number, number] => [kernelColumns, 24] } : {}),
    };
    const writer = createFrameWriter(stream, { reflows: true });
    const silently = (columns: number) => {
      screen.narrow(columns, { reflow: true });
      kernelColumns = columns;
    };
    const announce = () => {
      stream.columns = kernelColumns;
      for (const listener of listeners) listener();
    };
    return { screen, writer, silently, announce };
  }
  // The last rows of a paragraph as it streams (each frame shifts them up by one), above the box.
  const draft = (first: number, width: number) =>
    [0, 1, 2, 3, 4, 5].map((i) => `r${first + i} `.padEnd(width - 2, 'x'));
  const box = (width: number) => [
    `╭${'─'.repeat(width - 2)}╮`,
    `│ >${' '.repeat(width - 5)}│`,
    `╰${'─'.repeat(width - 2)}╯`,
  ];
  const frame = (rows: readonly string[]) => `${rows.join('\n')}\n`;
  const everything = (screen: VirtualScreen) =>
    [...screen.scrollback, ...screen.visible()].filter((r) => r !== '');

  for (const kernelSize of [true, false]) {
    it(`leaves no copy of the region in the scrollback or on screen (${kernelSize ? 'the new size known from the kernel' : 'the frame already on its way'})`, () => {
      const { screen, writer, silently, announce } = racing(kernelSize);
      // A screen full of history, as in a session: the region is at its bottom.
      screen.write(Array.from({ length: 13 }, (_, i) => `history ${i}\n`).join(''));
      writer(frame([...draft(1, 40), ...box(40)]));
      silently(24);
      writer(frame([...draft(2, 40), ...box(40)]));
      announce();
      writer(frame([...draft(3, 24), ...box(24)]));
      const rows = everything(screen);
      expect(rows.filter((row) => row.includes('╭'))).toHaveLength(1);
      expect(rows.filter((row) => row.includes('╰'))).toHaveLength(1);
      expect(rows.filter((row) => /^r\d/.test(row))).toEqual(draft(3, 24));
      expect(rows.filter((row) => row.startsWith('history'))).toHaveLength(13);
    });
  }

  it('does not draw a frame laid out for a width the kernel says is gone; the resize redraws it', () => {
    const { screen, writer, silently, announce } = racing(true);
    writer(frame([...draft(1, 40), ...box(40)]));
    const before = [...screen.scrollback, ...screen.visible()];
    silently(24);
    const rewrapped = [...screen.scrollback, ...screen.visible()];
    expect(before).not.toEqual(rewrapped);
    expect(writer(frame([...draft(2, 40), ...box(40)]))).toBe(false);
    expect([...screen.scrollback, ...screen.visible()]).toEqual(rewrapped);
    announce();
    writer(frame([...draft(3, 24), ...box(24)]));
    expect(screen.visible().filter((row) => row !== '')).toEqual([...draft(3, 24), ...box(24)]);
  });

  it('writes the rows of a region with auto-wrap off, and lines for the scrollback with it on', () => {
    const written: string[] = [];
    const stream = { isTTY: true, rows: 24, columns: 40, write: (data: string) => written.push(data) };
    const writer = createFrameWriter(stream, { reflows: true });
    writer(frame([...draft(1, 40), ...box(40)]));
    expect(written.at(-1)).toMatch(/^\x1b\[\?2026h\x1b\[\?7l[\s\S]*\x1b\[\?7h\x1b\[\?2026l$/);
    writer.writeAbove('a settled paragraph\n', frame([...draft(2, 40), ...box(40)]));
    expect(written.at(-1)).not.toContain('\x1b[?7l');
    // With auto-wrap off a terminal cuts a row at its margin instead of starting another.
    const screen = new VirtualScreen(10, 3);
    screen.write('\x1b[?7labcdefghijklmn\r\nnext\x1b[?7h');
    expect(screen.visible()).toEqual(['abcdefghin', 'next', '']);
  });
});

describe('what rewrapping needs to know', () => {
  it('measures a row without its escapes, wide characters as two columns', () => {
    expect(displayWidth('\x1b[36m❯ 1. Yes\x1b[39m')).toBe(8);
    expect(displayWidth('日本語')).toBe(6);
    expect(displayWidth('ok 👍')).toBe(5);
    expect(displayWidth('e\u0301')).toBe(1);
  });

  it('takes terminals to rewrap, except xterm and the Linux console (tmux always does)', () => {
    expect(terminalReflows({ TERM: 'xterm-256color' })).toBe(true);
    expect(terminalReflows({ TERM: 'xterm', XTERM_VERSION: 'XTerm(390)' })).toBe(false);
    expect(terminalReflows({ TERM: 'linux' })).toBe(false);
    expect(terminalReflows({ TERM: 'screen', TMUX: '/tmp/tmux-0/default,1,0', XTERM_VERSION: 'x' })).toBe(
      true,
    );
  });
});
