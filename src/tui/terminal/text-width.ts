/**
 * Where a terminal line can be cut so that the part after the cut can be rewritten on its own:
 * the cut must leave no colour or attribute open (the rewrite starts with the terminal's default
 * style), and the columns before it must be known. Widths are known for the characters every
 * terminal agrees on: printable ASCII and Latin, Greek, Cyrillic, and the symbol blocks the views
 * draw with (box drawing, blocks, braille spinner, arrows, bullets). Anything else (wide CJK,
 * emoji, combining marks, control characters, escape sequences other than SGR) ends the
 * measurable part: the caller then rewrites from an earlier cut, at worst the whole line.
 */

import { isSingleWidth } from './single-width';

/** The SGR code that closes what `code` opens (bold and dim share 22, colours 39 and 49). */
export function closerOf(code: number): number | undefined {
  if (code === 1 || code === 2) return 22;
  if (code >= 3 && code <= 9) return code + 20;
  if ((code >= 30 && code <= 38) || (code >= 90 && code <= 97)) return 39;
  if ((code >= 40 && code <= 48) || (code >= 100 && code <= 107)) return 49;
  return undefined;
}

/** Applies one SGR parameter list to the set of open attributes (keyed by their closing code). */
function applySgr(params: string, open: Set<number>): void {
  const codes = params === '' ? [0] : params.split(';').map(Number);
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i] as number;
    if (code === 0) open.clear();
    else if (code === 22 || code === 39 || code === 49 || (code >= 23 && code <= 29)) open.delete(code);
    else {
      const closer = closerOf(code);
      if (closer !== undefined) open.add(closer);
      // 38;5;n and 38;2;r;g;b carry their colour in the parameters that follow.
      if (code === 38 || code === 48) i += codes[i + 1] === 5 ? 2 : 4;
    }
  }
}

/** An SGR sequence where the scan stands; one of at most 32 characters is read as one. */
const SGR_AT = /\x1b\[([0-9;]*)m/y;
const MAX_SGR_LENGTH = 32;

/** Where a line can be cut: the columns before each UTF-16 index that is a cut. */
export class CutPoints {
  // One slot per index of the line and one past its end; NO_CUT where it cannot be cut. A map of
  // ~100 entries per row was most of what the frame writer allocated (and kept) per frame.
  constructor(private readonly columns: Uint16Array) {}

  /** The columns before `index`, or undefined where the line cannot be cut there. */
  get(index: number): number | undefined {
    const columns = this.columns[index];
    return columns === undefined || columns === NO_CUT ? undefined : columns;
  }

  /** The last cut at or before `index` (index 0 always is one). */
  lastAtOrBefore(index: number): number {
    for (let at = Math.min(index, this.columns.length - 1); at > 0; at--)
      if (this.columns[at] !== NO_CUT) return at;
    return 0;
  }

  /** [index, columns before it] of every cut, in order. */
  *[Symbol.iterator](): IterableIterator<[number, number]> {
    for (let at = 0; at < this.columns.length; at++) {
      const columns = this.columns[at] as number;
      if (columns !== NO_CUT) yield [at, columns];
    }
  }
}

const NO_CUT = 0xffff;

/**
 * Cut points by line. Every row the frame writer redraws is measured as the row shown and as the
 * row coming, and a row coming is the row shown of the next frame (and while an answer streams,
 * each of its rows moves up a row per line); the cut points are a pure function of the line, so
 * they are remembered (bounded: started again when full).
 */
let remembered = new Map<string, CutPoints>();

/**
 * The places `line` can be cut (UTF-16 index → columns before it): where no attribute is open
 * and everything before is measurable. Index 0 always is one.
 */
export function cutPoints(line: string): CutPoints {
  let cuts = remembered.get(line);
  if (cuts === undefined) {
    cuts = measureCuts(line);
    if (remembered.size >= 1000) remembered = new Map();
    remembered.set(line, cuts);
  }
  return cuts;
}

function measureCuts(line: string): CutPoints {
  const columns = new Uint16Array(line.length + 1).fill(NO_CUT);
  columns[0] = 0;
  const open = new Set<number>();
  let index = 0;
  let width = 0;
  while (index < line.length) {
    if (line.charCodeAt(index) === 0x1b) {
      SGR_AT.lastIndex = index;
      const sgr = SGR_AT.exec(line);
      if (!sgr || sgr[0].length > MAX_SGR_LENGTH) break;
      applySgr(sgr[1] as string, open);
      index += sgr[0].length;
    } else {
      const code = line.codePointAt(index) as number;
      // A row wider than the slots can say is not cut at all past that (no terminal is).
      if (!isSingleWidth(code) || width >= NO_CUT - 1) break;
      index += code > 0xffff ? 2 : 1;
      width++;
    }
    if (open.size === 0) columns[index] = width;
  }
  return new CutPoints(columns);
}

/** The last cut of `line` at or before `limit`: its index and the columns before it. */
export function rewritableCut(line: string, limit = line.length): { length: number; width: number } {
  const cuts = cutPoints(line);
  const length = cuts.lastAtOrBefore(limit);
  return { length, width: cuts.get(length) as number };
}

/** Wide characters: CJK, Hangul, fullwidth forms and the emoji planes take two columns. */
function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/**
 * The columns a terminal line takes, escape sequences left out: exact for what `cutPoints`
 * measures, and a close estimate past it (wide characters two columns, combining marks and
 * controls none) — enough to tell how many rows a line wraps onto.
 */
export function displayWidth(line: string): number {
  let width = 0;
  const text = line.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '');
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0) || (code >= 0x300 && code <= 0x36f) || code === 0x200d)
      continue;
    if (code >= 0xfe00 && code <= 0xfe0f) continue;
    width += isWide(code) ? 2 : 1;
  }
  return width;
}
