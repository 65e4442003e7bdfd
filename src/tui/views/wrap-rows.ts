/**
 * Word wrapping of a styled terminal line into rows of at most `width` columns, done before Ink
 * sees the text. Ink's own wrapping keeps every space (it wraps with trim off), so when a word
 * ends exactly at the row's last column the space after it begins the next row and pushes that
 * row one column right. Here the space where a row breaks is dropped, a row's indent is kept
 * only on the line's first row, a word wider than the row is cut by characters (a wide character
 * that no longer fits moves to the next row whole), and colours open at a break are closed at
 * the row's end and opened again on the next row, since Ink styles each row on its own.
 */

import { closerOf } from '../terminal/text-width';
import { displayWidth } from './display-width';
import { graphemeSegments } from './grapheme-segments';

/** An SGR sequence, or a run of spaces, or a run of other text. */
const TOKEN = /\x1b\[[0-9;]*m|[ ]+|[^ \x1b]+|\x1b/g;

/** The attributes open at a point of the line: each one's opening sequence, keyed by its closer. */
class OpenStyles {
  private readonly open = new Map<number, string[]>();

  apply(sequence: string): void {
    const params = sequence.slice(2, -1);
    const codes = params === '' ? [0] : params.split(';').map(Number);
    for (let i = 0; i < codes.length; i++) {
      const code = codes[i] as number;
      if (code === 0) this.open.clear();
      else if (code === 22 || code === 39 || code === 49 || (code >= 23 && code <= 29))
        this.open.delete(code);
      else {
        const closer = closerOf(code);
        // 38;5;n and 38;2;r;g;b carry their colour in the parameters that follow.
        const length = code === 38 || code === 48 ? (codes[i + 1] === 5 ? 3 : 5) : 1;
        const opening = `\x1b[${codes.slice(i, i + length).join(';')}m`;
        if (closer !== undefined) {
          // Bold and dim share their closer: both stay open until it comes.
          const same = this.open.get(closer) ?? [];
          this.open.set(closer, closer === 22 ? [...same, opening] : [opening]);
        }
        i += length - 1;
      }
    }
  }

  /** What ends a row with these attributes open, and what starts the next one. */
  get close(): string {
    return this.open.size ? `\x1b[${[...this.open.keys()].join(';')}m` : '';
  }

  get reopen(): string {
    return [...this.open.values()].flat().join('');
  }
}

const isEscape = (piece: string) => piece.startsWith('\x1b[') && piece.endsWith('m');

/** The rows `line` wraps to in `width` columns (the line itself when it fits). */
export function wrapRows(line: string, width: number): string[] {
  if (width < 1 || displayWidth(line.replace(/\x1b\[[0-9;]*m/g, '')) <= width) return [line];
  const styles = new OpenStyles();
  const rows: string[] = [];
  let row = '';
  let rowWidth = 0;
  // Spaces wait until the word after them shows whether they stay on this row or mark a break.
  let spaces = '';
  let atLineStart = true;
  const breakRow = () => {
    rows.push(row + styles.close);
    row = styles.reopen;
    rowWidth = 0;
  };
  const append = (piece: string, pieceWidth: number) => {
    if (isEscape(piece)) styles.apply(piece);
    row += piece;
    rowWidth += pieceWidth;
  };
  /** A word: its text and the style changes inside it, which wrap with it. */
  const addWord = (pieces: string[]) => {
    const widths = pieces.map((piece) => (isEscape(piece) ? 0 : displayWidth(piece)));
    const wordWidth = widths.reduce((sum, w) => sum + w, 0);
    if (wordWidth === 0) {
      // Only style changes (a colour closed after the last word): no row of their own.
      for (const piece of pieces) append(piece, 0);
      return;
    }
    // Leading spaces stay only as the line's indent; a continuation row starts at its word.
    let gap = rowWidth > 0 || atLineStart ? spaces.length : 0;
    if (rowWidth > 0 && rowWidth + gap + wordWidth > width && wordWidth <= width) {
      breakRow();
      gap = 0;
    }
    spaces = '';
    atLineStart = false;
    if (rowWidth + gap >= width) {
      breakRow();
      gap = 0;
    }
    append(' '.repeat(gap), gap);
    if (rowWidth + wordWidth <= width) {
      pieces.forEach((piece, i) => {
        append(piece, widths[i] as number);
      });
      return;
    }
    // Wider than a row: cut by characters; a wide one that no longer fits moves on whole.
    for (const piece of pieces) {
      if (isEscape(piece)) {
        append(piece, 0);
        continue;
      }
      for (const { segment } of graphemeSegments(piece)) {
        const charWidth = displayWidth(segment);
        if (rowWidth > 0 && rowWidth + charWidth > width) breakRow();
        append(segment, charWidth);
      }
    }
  };
  let word: string[] = [];
  for (const [token] of line.matchAll(TOKEN)) {
    if (token[0] === ' ') {
      if (word.length) addWord(word);
      word = [];
      spaces += token;
    } else word.push(token);
  }
  if (word.length) addWord(word);
  // Trailing spaces are left out: they would only fill the row past its last word.
  rows.push(row);
  return rows;
}

/**
 * Lines already wrapped, by width and line. A streaming answer is wrapped whole on every frame,
 * though only its last line grows; a line's rows are a pure function of the line and the width,
 * so they are remembered (bounded: started again when full).
 */
let wrapped = new Map<string, readonly string[]>();

function wrappedLine(line: string, width: number): readonly string[] {
  const key = `${width}\n${line}`;
  let rows = wrapped.get(key);
  if (rows === undefined) {
    rows = wrapRows(line, width);
    if (wrapped.size >= 2000) wrapped = new Map();
    wrapped.set(key, rows);
  }
  return rows;
}

/** Every line of `text` wrapped to `width` columns. */
export function wrapText(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => wrappedLine(line, width))
    .join('\n');
}
