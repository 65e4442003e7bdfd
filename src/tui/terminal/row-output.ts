/**
 * What Ink's vendor bundle uses in place of its `output.js` (scripts/esbuild-plugins.mjs): the
 * frame as a string, from the writes Ink's renderer makes (text at a position, inside clipping
 * regions). Ink paints every write into a grid of styled cells, one object per column of every
 * row, and turns each row back into a string — on every frame, for every row, though a key or a
 * streamed line changes one or two rows. Here the writes are first sorted into rows; a row is
 * painted (by Ink's own steps, so the same string comes out) only when its writes differ from any
 * row remembered, and an unchanged row (the input box's frame, the status line, the answer's rows
 * above the one being written) is the string made before. A row's string is a pure function of
 * the frame's width and that row's writes, so the memo changes nothing the terminal receives
 * (row-output.test.ts feeds the same writes to Ink's Output and to this one).
 */
import { type StyledChar, tokenize } from '@alcalzone/ansi-tokenize';
import sliceAnsi from 'slice-ansi';
import stringWidth from './fast-string-width';
import { styledChars } from './styled-chars';
import { styledCharsToString } from './styled-row';

type Transformer = (line: string, index: number) => string;
type Clip = {
  x1: number | undefined;
  x2: number | undefined;
  y1: number | undefined;
  y2: number | undefined;
};
type Operation =
  | { type: 'write'; x: number; y: number; text: string; transformers: Transformer[] }
  | { type: 'clip'; clip: Clip }
  | { type: 'unclip' };
/** A line of a write that reached a row: its column and its text (transformed, clipped). */
type RowWrite = { x: number; line: string };

/** Cells are only ever replaced, never changed, so one blank serves every empty cell. */
const BLANK: StyledChar = { type: 'char', value: ' ', fullWidth: false, styles: [] };

/** Pure functions of text, remembered across frames; each map starts again when it grows large. */
class TextMemo {
  private widths = new Map<string, number>();
  private blockWidths = new Map<string, number>();
  private styledChars = new Map<string, StyledChar[]>();
  private rows = new Map<string, string>();

  width(text: string): number {
    let width = this.widths.get(text);
    if (width === undefined) {
      width = stringWidth(text);
      if (this.widths.size >= 4000) this.widths = new Map();
      this.widths.set(text, width);
    }
    return width;
  }

  widestLine(text: string): number {
    let widest = this.blockWidths.get(text);
    if (widest === undefined) {
      widest = 0;
      for (const line of text.split('\n')) widest = Math.max(widest, this.width(line));
      if (this.blockWidths.size >= 400) this.blockWidths = new Map();
      this.blockWidths.set(text, widest);
    }
    return widest;
  }

  chars(line: string): StyledChar[] {
    let chars = this.styledChars.get(line);
    if (chars === undefined) {
      chars = styledChars(tokenize(line));
      if (this.styledChars.size >= 400) this.styledChars = new Map();
      this.styledChars.set(line, chars);
    }
    return chars;
  }

  row(width: number, writes: readonly RowWrite[]): string {
    if (writes.length === 0) return ''; // blank cells only, all trimmed
    // Lengths make the key unambiguous whatever characters the lines hold.
    let key = `${width}`;
    for (const { x, line } of writes) key += `|${x}:${line.length}:${line}`;
    let row = this.rows.get(key);
    if (row === undefined) {
      row = this.paint(width, writes);
      if (this.rows.size >= 1000) this.rows = new Map();
      this.rows.set(key, row);
    }
    return row;
  }

  /** Ink's painting of one row: each write's characters over blank cells, then the string. */
  private paint(width: number, writes: readonly RowWrite[]): string {
    const cells: StyledChar[] = new Array(width).fill(BLANK);
    for (const { x, line } of writes) {
      let offsetX = x;
      for (const character of this.chars(line)) {
        cells[offsetX] = character;
        // Wide characters: the cells they cover are cleared, so no stray space is left.
        const characterWidth = Math.max(1, this.width(character.value));
        for (let index = 1; index < characterWidth; index++)
          cells[offsetX + index] = { type: 'char', value: '', fullWidth: false, styles: character.styles };
        offsetX += characterWidth;
      }
    }
    // A write past the last column can leave holes; Ink drops them.
    return styledCharsToString(cells.filter((cell) => cell !== undefined)).trimEnd();
  }
}

const memo = new TextMemo();

export default class Output {
  readonly width: number;
  readonly height: number;
  private readonly operations: Operation[] = [];

  constructor(options: { width: number; height: number }) {
    this.width = options.width;
    this.height = options.height;
  }

  write(x: number, y: number, text: string, options: { transformers: Transformer[] }): void {
    if (!text) return;
    this.operations.push({ type: 'write', x, y, text, transformers: options.transformers });
  }

  clip(clip: Clip): void {
    this.operations.push({ type: 'clip', clip });
  }

  unclip(): void {
    this.operations.push({ type: 'unclip' });
  }

  get(): { output: string; height: number } {
    const rows: RowWrite[][] = Array.from({ length: this.height }, () => []);
    const clips: Clip[] = [];
    for (const operation of this.operations) {
      if (operation.type === 'clip') clips.push(operation.clip);
      else if (operation.type === 'unclip') clips.pop();
      else this.place(operation, clips.at(-1), rows);
    }
    return { output: rows.map((writes) => memo.row(this.width, writes)).join('\n'), height: rows.length };
  }

  /** Ink's clipping and row placement of one write (its steps and their order, transformers too). */
  private place(operation: Operation & { type: 'write' }, clip: Clip | undefined, rows: RowWrite[][]): void {
    const { text, transformers } = operation;
    let { x, y } = operation;
    let lines = text.split('\n');
    if (clip) {
      const clipHorizontally = typeof clip.x1 === 'number' && typeof clip.x2 === 'number';
      const clipVertically = typeof clip.y1 === 'number' && typeof clip.y2 === 'number';
      const { x1 = 0, x2 = 0, y1 = 0, y2 = 0 } = clip;
      // Entirely outside the clipping region: nothing of it is drawn.
      if (clipHorizontally && (x + memo.widestLine(text) < x1 || x > x2)) return;
      if (clipVertically && (y + lines.length < y1 || y > y2)) return;
      if (clipHorizontally) {
        lines = lines.map((line) => {
          const from = x < x1 ? x1 - x : 0;
          const width = memo.width(line);
          const to = x + width > x2 ? x2 - x : width;
          return sliceAnsi(line, from, to);
        });
        if (x < x1) x = x1;
      }
      if (clipVertically) {
        const from = y < y1 ? y1 - y : 0;
        const to = y + lines.length > y2 ? y2 - y : lines.length;
        lines = lines.slice(from, to);
        if (y < y1) y = y1;
      }
    }
    let offsetY = 0;
    for (let index = 0; index < lines.length; index++) {
      const row = rows[y + offsetY];
      // A line below the frame (or above it) is not drawn, and, as in Ink, neither is the rest.
      if (!row) continue;
      let line = lines[index] as string;
      for (const transformer of transformers) line = transformer(line, index);
      row.push({ x, line });
      offsetY++;
    }
  }
}
