/**
 * Draws the REPL's live region (the rows below the scrollback that Ink redraws) by writing only
 * what changed since the frame on screen. It stands in for Ink's log-update, which erases and
 * rewrites every row of the region on every frame: at 20 frames a second while an answer streams,
 * that is the input box and status line again and again. Here:
 * - a changed row is rewritten from the first column that differs (a streamed word is appended,
 *   not the line redrawn), and unchanged rows are not touched;
 * - rows added or removed in the middle (a paragraph growing by a line) move the rows below them
 *   with insert/delete-line, so the input box under a streaming answer is never rewritten;
 * - new scrollback lines (Ink's <Static> output) are drawn as the top of the frame, diffed like
 *   the rest, and then leave the region: a finished block of the answer being streamed, already
 *   on screen as the region's top rows, stays where it is instead of being erased and printed
 *   again above it.
 * Frames that rewrite several rows are wrapped in synchronized-output marks (DEC 2026), so the
 * terminal shows them whole; terminals without it ignore the marks.
 *
 * A terminal that gets narrower rewraps the rows on screen before the resize signal arrives —
 * tmux up to a quarter of a second before, when it resized the pane shortly before (it applies a
 * pane's resizes to the pty at most every 250 ms, but rewraps its screen at once). Frames written
 * in between are laid out for the old width and counted in rows the screen no longer has, so no
 * count of rows leads back to the region's top. The top is found without counting instead:
 * - between frames the cursor rests at the region's top-left cell, and a rewrapping terminal keeps
 *   the cursor on the cell of text it was on: after any rewrap it is still at the top. A frame
 *   moves down from there and back up by the same rows, so it ends at the top even when the
 *   rewrap came before it (what it drew in between is garbled, and redrawn on the resize event);
 * - new scrollback lines move the top down past them. For a second after a resize event (a second
 *   resize may be on screen already) they are not diffed into the rows on screen but written out
 *   in full below the erased region, so the cursor ends after them whatever width wrapped them;
 * - a frame laid out for a width the kernel says is gone is not drawn, and the region's rows of a
 *   synchronized frame, and of every frame for that second, go out with auto-wrap off: a row too
 *   wide for the screen is cut, not wrapped onto the next (which would leave the cursor lower).
 *
 * A region taller than the terminal shows its bottom rows (frame-fit.ts). scripts/esbuild-plugins.mjs
 * puts this writer in Ink's place in the vendor bundle (ink-output-seam.ts).
 */

import {
  CSI,
  ERASE_ROWS_BELOW,
  HIDE_CURSOR,
  SHOW_CURSOR,
  SYNC_END,
  SYNC_START,
  WRAP_OFF,
  WRAP_ON,
} from './frame-escapes';
import { fitFrame } from './frame-fit';
import {
  type CursorPosition,
  type FrameStream,
  type FrameWriter,
  regionRows,
  samePosition,
  splitFrame,
} from './frame-types';
import { rowRewrite } from './row-rewrite';
import { kernelColumns, RecentResize, terminalReflows, wrappedRows } from './terminal-reflow';

export type { CursorPosition, FrameStream, FrameWriter } from './frame-types';
export { terminalReflows } from './terminal-reflow';

/** A frame that writes this many rows or more is synchronized. */
const SYNC_ROWS = 3;

class LiveFrame {
  /** The region's rows as on screen, top first. */
  private rows: string[] = [];
  /** The text last drawn, as Ink gave it. */
  private text = '';
  /** The text ended with a newline: the cursor rests on the row below the region. */
  private trailing = true;
  /** The cursor's row, counted from the region's top (0 between frames, unless a cursor is shown). */
  private row = 0;
  /** Rows from the region's top known to exist on screen (below them the terminal may scroll). */
  private existing = 1;
  /** The screen no longer shows `rows` (cleared, resized): the next frame draws every row. */
  private stale = true;
  /** clear() was the last thing written: the region is blank whatever Ink syncs next. */
  private cleared = false;
  private cursor: CursorPosition | undefined;
  private cursorDirty = false;
  private shownCursor: CursorPosition | undefined;
  private cursorHidden = false;
  private out = '';
  private rowsWritten = 0;
  /**
   * Where in `out` the rows of the region start, which may go out with auto-wrap off (see
   * WRAP_OFF); none when the frame diffs lines for the scrollback in with them (they must wrap).
   */
  private cutFrom: number | undefined = 0;
  /** The width the rows on screen were drawn at. */
  private drawnColumns: number | undefined;
  private readonly resized: RecentResize;
  private readonly onResize = () => {
    this.stale = true;
    this.resized.mark();
  };

  constructor(
    private readonly stream: FrameStream,
    private readonly showCursor: boolean,
    /** Whether the terminal rewraps its rows when it gets narrower (tmux, most terminals; not xterm). */
    private readonly reflows: boolean,
    /** Monotonic milliseconds (performance.now; a test's own clock). */
    clock: () => number,
  ) {
    this.resized = new RecentResize(clock);
    stream.on?.('resize', this.onResize);
  }

  render(frame: string): boolean {
    const { text, cursor } = fitFrame(frame, this.cursorDirty ? this.cursor : undefined, this.stream.rows);
    this.cursorDirty = false;
    if (text === this.text && !this.stale && samePosition(cursor, this.shownCursor)) return false;
    // Laid out for a width the terminal no longer has: drawn now, its rows would wrap and move
    // the region's top where no count of rows can find it. Ink draws again on the resize event.
    if (this.markStaleIfNarrowed()) return false;
    this.begin();
    this.draw(text);
    this.placeCursor(cursor);
    this.flush();
    return true;
  }

  willRender(frame: string): boolean {
    const { text, cursor } = fitFrame(frame, this.cursorDirty ? this.cursor : undefined, this.stream.rows);
    return text !== this.text || this.stale || !samePosition(cursor, this.shownCursor);
  }

  writeAbove(scrollback: string, frame: string): void {
    const { text, cursor } = fitFrame(frame, this.cursorDirty ? this.cursor : undefined, this.stream.rows);
    this.cursorDirty = false;
    // The scrollback cannot wait for the resize event: it is written below the region's real top.
    this.markStaleIfNarrowed();
    this.begin();
    this.cutFrom = undefined;
    const above = splitFrame(scrollback).rows;
    const next = regionRows(text);
    const height = this.stream.rows ?? 0;
    if (!this.stale && !this.resized.mayBeUnseen() && above.length + next.rows.length < height) {
      // Drawn as one frame, the new scrollback lines on top: the rows the region already shows
      // (a settled paragraph it was streaming) are kept or finished in place, not printed again.
      this.draw([...above, ...next.rows].join('\n') + (next.trailing ? '\n' : ''));
      // The region's top is now the row below them (the cursor may still be among them).
      this.rows = this.rows.slice(above.length);
      this.row -= above.length;
      this.existing -= above.length;
      this.text = text;
    } else {
      // Taller than the screen (the cursor could not go back up to the top of it), or the screen
      // may have rewrapped unannounced: the lines written whole leave the cursor right below them.
      if (this.stale) this.moveToTopAfterResize();
      else this.moveTo(0);
      this.out += `${ERASE_ROWS_BELOW}${scrollback}`;
      this.cutFrom = this.out.length;
      this.rowsWritten += above.length;
      this.rows = [];
      this.row = 0;
      this.existing = 1;
      this.stale = false;
      this.draw(text);
    }
    this.placeCursor(cursor);
    this.flush();
  }

  clear(): void {
    this.begin();
    if (this.stale) this.moveToTopAfterResize();
    else this.moveTo(0);
    this.out += ERASE_ROWS_BELOW;
    this.forget();
    this.cleared = true;
    this.flush();
  }

  /** Ink wrote `text` itself (after clearing the screen): take it as what is shown. */
  sync(frame: string): void {
    const { text } = fitFrame(frame, undefined, this.stream.rows);
    const { rows, trailing } = regionRows(text);
    this.cursorDirty = false;
    this.text = text;
    if (this.cleared) {
      // Ink syncs what it drew last after clearing it; it is not on screen: draw it all next time.
      this.stale = true;
      return;
    }
    this.rows = rows;
    this.trailing = trailing;
    this.row = trailing ? rows.length : rows.length - 1;
    this.existing = this.row + 1;
    this.stale = false;
  }

  done(): void {
    this.begin();
    this.moveTo(this.trailing ? this.rows.length : Math.max(0, this.rows.length - 1));
    this.out += this.trailing ? '\r' : '\n';
    if (!this.showCursor || this.shownCursor) this.out += SHOW_CURSOR;
    this.flush();
    this.stream.off?.('resize', this.onResize);
    this.forget();
    this.stale = true;
    this.cursorHidden = false;
  }

  /** Nothing of the region is on screen: the cursor is at its top. */
  private forget(): void {
    this.rows = [];
    this.text = '';
    this.row = 0;
    this.existing = 1;
    this.shownCursor = undefined;
  }

  setCursorPosition(position: CursorPosition | undefined): void {
    this.cursor = position;
    this.cursorDirty = true;
  }

  /**
   * Ink asks this before writing a frame it has not changed: write it when the cursor moved, and
   * when the screen no longer shows the region (after a clear, a resize, a suspend and `fg`).
   */
  isCursorDirty(): boolean {
    return this.cursorDirty || this.stale;
  }

  private begin(): void {
    this.out = '';
    this.cleared = false;
    this.rowsWritten = 0;
    this.cutFrom = 0;
    if ((!this.showCursor && !this.cursorHidden) || this.shownCursor) {
      this.out += HIDE_CURSOR;
      this.cursorHidden = !this.showCursor;
    }
  }

  private flush(): void {
    if (!this.out) return;
    const sync = this.stream.isTTY === true && this.rowsWritten >= SYNC_ROWS;
    // Rows of the region only: cut rather than wrapped should the terminal be narrower by now (a
    // row wrapped unseen would also leave the cursor a row lower than the writer counts).
    const from = this.cutFrom;
    const body =
      from !== undefined && (sync || this.resized.mayBeUnseen())
        ? this.out.slice(0, from) + WRAP_OFF + this.out.slice(from) + WRAP_ON
        : this.out;
    this.stream.write(sync ? SYNC_START + body + SYNC_END : body);
    this.out = '';
  }

  private draw(text: string): void {
    const { rows: next, trailing } = regionRows(text);
    if (this.stale) {
      // Whatever is on screen from the region's top down is not known: erase it and draw all.
      this.moveToTopAfterResize();
      this.out += ERASE_ROWS_BELOW;
      this.rows = [];
      this.stale = false;
    }
    this.drawnColumns = this.stream.columns;
    const shown = this.moveRows(this.rows, next);
    for (let i = 0; i < next.length; i++) {
      if (shown[i] === next[i]) continue;
      this.moveTo(i);
      this.out += rowRewrite(shown[i], next[i] as string);
      this.rowsWritten++;
    }
    if (shown.length > next.length) {
      this.moveTo(next.length);
      this.out += ERASE_ROWS_BELOW;
    }
    // The row the cursor ends on once the region is done must exist (a newline makes it).
    const bottom = trailing ? next.length : Math.max(0, next.length - 1);
    if (bottom >= this.existing) this.moveTo(bottom);
    this.rows = next;
    this.text = text;
    this.trailing = trailing;
  }

  /**
   * Rows inserted or removed between an unchanged head and tail: moves the tail with
   * insert/delete-line rather than rewriting it. Returns the rows on screen afterwards.
   */
  private moveRows(before: readonly string[], next: readonly string[]): string[] {
    const added = next.length - before.length;
    if (added === 0 || before.length === 0) return [...before];
    let head = 0;
    while (head < before.length && head < next.length && before[head] === next[head]) head++;
    let tail = 0;
    while (
      tail < before.length - head &&
      tail < next.length - head &&
      before[before.length - 1 - tail] === next[next.length - 1 - tail]
    )
      tail++;
    if (tail === 0) return [...before];
    const at = before.length - tail;
    if (added > 0) {
      // The rows the tail moves into must exist first, or inserting would push it off the screen.
      this.moveTo(next.length);
      this.moveTo(at);
      this.out += `\r${CSI}${added === 1 ? '' : added}L`;
      this.rowsWritten++;
      return [...before.slice(0, at), ...Array<string>(added).fill(''), ...before.slice(at)];
    }
    const removed = -added;
    this.moveTo(at - removed);
    this.out += `\r${CSI}${removed === 1 ? '' : removed}M`;
    this.rowsWritten++;
    return [...before.slice(0, at - removed), ...before.slice(at)];
  }

  /**
   * Whether the terminal got narrower than the rows on screen were drawn for, and the resize
   * event has not said so yet (a frame rendered in between is laid out for the old width).
   */
  private narrowedUnseen(): boolean {
    const now = kernelColumns(this.stream);
    return !this.stale && !!now && !!this.drawnColumns && now < this.drawnColumns;
  }

  /** Marks the region stale (drawn afresh from its rewrapped top) if it narrowed unseen; says whether. */
  private markStaleIfNarrowed(): boolean {
    if (!this.narrowedUnseen()) return false;
    this.stale = true;
    return true;
  }

  /**
   * To the region's top. A terminal that got narrower and rewraps its rows has wrapped each row
   * of the region wider than the new width onto several: going up by the region's own count of
   * rows would stop inside it and leave its top rows (the input box's old border) on screen.
   */
  private moveToTopAfterResize(): void {
    const now = kernelColumns(this.stream);
    const before = this.drawnColumns;
    if (!this.reflows || !now || !before || now >= before || this.row === 0) {
      this.moveTo(0);
      return;
    }
    let up = 0;
    for (let i = 0; i < this.row && i < this.rows.length; i++) up += wrappedRows(this.rows[i] as string, now);
    // The cursor's own row wraps too: it sits on the part that holds its column.
    if (this.shownCursor && this.shownCursor.y === this.row) up += Math.floor(this.shownCursor.x / now);
    if (up > 0) this.out += `${CSI}${up === 1 ? '' : up}A`;
    this.existing = Math.max(this.existing, up + 1);
    this.row = 0;
  }

  /** Moves the cursor to a row of the region (counted from its top), creating rows below. */
  private moveTo(target: number): void {
    if (target < this.row) {
      const up = this.row - target;
      this.out += `${CSI}${up === 1 ? '' : up}A`;
    } else if (target > this.row) {
      const within = Math.min(target, this.existing - 1) - this.row;
      if (within > 0) this.out += within <= 2 ? '\n'.repeat(within) : `${CSI}${within}B`;
      // Below the known rows only a newline makes room (the terminal scrolls at its bottom).
      const beyond = target - Math.max(this.row, this.existing - 1);
      if (beyond > 0) this.out += '\n'.repeat(beyond);
      this.existing = Math.max(this.existing, target + 1);
    }
    this.row = target;
  }

  /** Shows the cursor where Ink asked, or leaves it at the region's top-left (see the header). */
  private placeCursor(cursor: CursorPosition | undefined): void {
    if (cursor) {
      this.moveTo(cursor.y);
      this.out += `${CSI}${cursor.x + 1}G${SHOW_CURSOR}`;
    } else if (this.row !== 0 || this.rowsWritten > 0) {
      this.moveTo(0);
      this.out += '\r';
    }
    this.shownCursor = cursor ? { ...cursor } : undefined;
  }
}

export function createFrameWriter(
  stream: FrameStream,
  {
    showCursor = false,
    reflows = terminalReflows(process.env),
    clock = () => performance.now(),
  }: { showCursor?: boolean; reflows?: boolean; clock?: () => number } = {},
): FrameWriter {
  const frame = new LiveFrame(stream, showCursor, reflows, clock);
  return Object.assign((text: string) => frame.render(text), {
    clear: () => frame.clear(),
    done: () => frame.done(),
    sync: (text: string) => frame.sync(text),
    setCursorPosition: (position: CursorPosition | undefined) => frame.setCursorPosition(position),
    isCursorDirty: () => frame.isCursorDirty(),
    willRender: (text: string) => frame.willRender(text),
    writeAbove: (scrollback: string, text: string) => frame.writeAbove(scrollback, text),
  });
}
