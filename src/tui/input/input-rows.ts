/**
 * The input box's text laid out in rows, as offsets into the text: the box shows only a window of
 * them (a long prompt would otherwise grow taller than the terminal, and the cursor near its start
 * would scroll off the screen), and the window must know which row holds the cursor. Words wrap as
 * a person reads them; a word wider than a row is cut; a space that ends a full row hangs in the
 * column the caller keeps free for the cursor, so no row starts with the space of a break.
 * Only a line with characters that join others (marks, emoji sequences) is cut into graphemes;
 * any other is measured a character at a time, so a key costs one quick scan of a long prompt.
 */

import { displayWidth } from '../views/display-width';
import { graphemeSegments } from '../views/grapheme-segments';

/** One row: text[start, end), without the newline; `last` when it ends its line of the text. */
export type InputRow = { readonly start: number; readonly end: number; readonly last: boolean };

type Unit = { index: number; length: number; width: number; space: boolean };

/** Characters that join others into one: marks, joiners, variation selectors, surrogates, jamo. */
const JOINS = /[\p{M}\p{Cf}\ud800-\udfff\u1100-\u11ff]/u;

function* units(line: string, widths: Map<string, number>): Generator<Unit> {
  if (!JOINS.test(line)) {
    // Every character is a whole one: measured once each (a long CJK prompt repeats a few).
    for (let index = 0; index < line.length; index++) {
      const code = line.charCodeAt(index);
      if (code >= 0x20 && code < 0x7f) {
        yield { index, length: 1, width: 1, space: code === 0x20 };
        continue;
      }
      const char = line[index] as string;
      let width = widths.get(char);
      if (width === undefined) {
        width = displayWidth(char);
        widths.set(char, width);
      }
      yield { index, length: 1, width, space: false };
    }
    return;
  }
  for (const { segment, index } of graphemeSegments(line))
    yield { index, length: segment.length, width: displayWidth(segment), space: segment === ' ' };
}

/** The rows of one line of the text, which starts at `base`, in rows of at most `width` columns. */
function wrapLine(
  line: string,
  base: number,
  width: number,
  rows: InputRow[],
  widths: Map<string, number>,
): void {
  let start = 0;
  let used = 0;
  // Where the row may break: after its last space, and the columns taken since.
  let breakAt = -1;
  let sinceBreak = 0;
  const endRow = (end: number) => {
    rows.push({ start: base + start, end: base + end, last: false });
    start = end;
    breakAt = -1;
  };
  for (const unit of units(line, widths)) {
    if (used > 0 && used + unit.width > width) {
      if (unit.space) {
        endRow(unit.index + unit.length);
        used = 0;
        sinceBreak = 0;
        continue;
      }
      if (breakAt > start && sinceBreak + unit.width <= width) {
        endRow(breakAt);
        used = sinceBreak;
      } else {
        endRow(unit.index);
        used = 0;
      }
      sinceBreak = 0;
    }
    used += unit.width;
    if (unit.space) {
      breakAt = unit.index + unit.length;
      sinceBreak = 0;
    } else sinceBreak += unit.width;
  }
  rows.push({ start: base + start, end: base + line.length, last: true });
}

/** Every row of `text` in rows of at most `width` columns (at least one row). */
export function inputRows(text: string, width: number): InputRow[] {
  const rows: InputRow[] = [];
  const widths = new Map<string, number>();
  let base = 0;
  for (const line of text.split('\n')) {
    wrapLine(line, base, Math.max(1, width), rows, widths);
    base += line.length + 1;
  }
  return rows;
}

/** The row the cursor stands in: at a row's end only when that row ends its line. */
export function cursorRow(rows: readonly InputRow[], cursor: number): number {
  let low = 0;
  let high = rows.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    const row = rows[mid] as InputRow;
    if (cursor < row.end || (cursor === row.end && row.last)) high = mid;
    else low = mid + 1;
  }
  return low;
}

/**
 * The first row of a window of `size` rows that shows the cursor's row, moved from `top` (where it
 * was) only as far as it must: the text stays put while the cursor moves inside the window.
 */
export function windowTop(top: number, cursor: number, size: number, total: number): number {
  const kept = Math.min(Math.max(top, cursor - size + 1), cursor);
  return Math.max(0, Math.min(kept, total - size));
}

/**
 * Up (-1) or Down (1) by one row of the box, to the same column where the row is long enough;
 * undefined when the cursor is in the first or last row (history's turn).
 */
export function moveRow(rows: readonly InputRow[], cursor: number, direction: -1 | 1): number | undefined {
  const from = cursorRow(rows, cursor);
  const to = rows[from + direction];
  if (!to) return undefined;
  const column = cursor - (rows[from] as InputRow).start;
  // A row that wraps on ends where the next begins: its last place is one before that.
  const lastPlace = to.last ? to.end : Math.max(to.start, to.end - 1);
  return Math.min(to.start + column, lastPlace);
}
