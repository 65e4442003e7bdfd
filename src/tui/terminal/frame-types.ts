import { frameSafe } from './terminal-text';

/** What the frame writer draws on, and what it offers Ink in place of log-update. */
export type CursorPosition = { x: number; y: number };

export type FrameStream = {
  write(data: string): unknown;
  isTTY?: boolean;
  /** The terminal's height: new scrollback is drawn in place only when it fits on screen. */
  rows?: number;
  /** The terminal's width: after it shrinks, a reflowing terminal has wrapped the rows on screen. */
  columns?: number;
  /**
   * The terminal's size as the kernel has it now ([columns, rows]; a TTY's getWindowSize). It
   * changes before `columns` does: that waits for the resize signal to be handled.
   */
  getWindowSize?(): [number, number];
  on?(event: 'resize', listener: () => void): unknown;
  off?(event: 'resize', listener: () => void): unknown;
};

/** The interface of Ink's log-update, plus writeAbove for its <Static> output. */
export type FrameWriter = {
  (text: string): boolean;
  clear(): void;
  done(): void;
  sync(text: string): void;
  setCursorPosition(position: CursorPosition | undefined): void;
  isCursorDirty(): boolean;
  willRender(text: string): boolean;
  writeAbove(scrollback: string, text: string): void;
};

/**
 * A frame's rows, and whether it ends with a newline (the cursor then rests below them). No row
 * carries a control character other than Yoke's own SGR styling (terminal-text.ts).
 */
export function splitFrame(text: string): { rows: string[]; trailing: boolean } {
  const rows = frameSafe(text).split('\n');
  const trailing = text.endsWith('\n');
  if (trailing) rows.pop();
  return { rows, trailing };
}

/**
 * A live region's rows: as splitFrame, except that Ink's frame of nothing (its empty output plus
 * the newline it adds to every frame) has none — drawn as a blank row, it would leave the cursor a
 * row below where the region started (a dialog unmounted empty, then the REPL a row lower).
 */
export function regionRows(text: string): { rows: string[]; trailing: boolean } {
  return text === '\n' ? { rows: [], trailing: true } : splitFrame(text);
}

export function samePosition(a: CursorPosition | undefined, b: CursorPosition | undefined): boolean {
  return a?.x === b?.x && a?.y === b?.y;
}
