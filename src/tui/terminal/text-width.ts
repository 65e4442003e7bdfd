/**
 * Where a terminal line can be cut so that the part after the cut can be rewritten on its own:
 * the cut must leave no colour or attribute open (the rewrite starts with the terminal's default
 * style), and the columns before it must be known. Widths are known for the characters every
 * terminal agrees on: printable ASCII and Latin, Greek, Cyrillic, and the symbol blocks the views
 * draw with (box drawing, blocks, braille spinner, arrows, bullets). Anything else (wide CJK,
 * emoji, combining marks, control characters, escape sequences other than SGR) ends the
 * measurable part: the caller then rewrites from an earlier cut, at worst the whole line.
 */

function isSingleWidth(code: number): boolean {
  if (code >= 0x20 && code < 0x7f) return true;
  if (code >= 0xa0 && code < 0x300) return code !== 0xad; // Latin; not the soft hyphen
  if (code >= 0x370 && code < 0x530) return true; // Greek, Cyrillic
  return (
    (code >= 0x2010 && code <= 0x2027) || // dashes, quotes, bullet, ellipsis
    (code >= 0x2190 && code <= 0x21ff) || // arrows
    (code >= 0x2500 && code <= 0x259f) || // box drawing, block elements
    (code >= 0x2800 && code <= 0x28ff) // braille (the spinner)
  );
}

/** The SGR code that closes what `code` opens (bold and dim share 22, colours 39 and 49). */
function closerOf(code: number): number | undefined {
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

/**
 * The places `line` can be cut (UTF-16 index → columns before it): where no attribute is open
 * and everything before is measurable. Index 0 always is one.
 */
export function cutPoints(line: string): Map<number, number> {
  const cuts = new Map<number, number>([[0, 0]]);
  const open = new Set<number>();
  let index = 0;
  let width = 0;
  while (index < line.length) {
    if (line.charCodeAt(index) === 0x1b) {
      const sgr = /^\x1b\[([0-9;]*)m/.exec(line.slice(index, index + 32));
      if (!sgr) break;
      applySgr(sgr[1] as string, open);
      index += sgr[0].length;
    } else {
      const code = line.codePointAt(index) as number;
      if (!isSingleWidth(code)) break;
      index += code > 0xffff ? 2 : 1;
      width++;
    }
    if (open.size === 0) cuts.set(index, width);
  }
  return cuts;
}

/** The last cut of `line` at or before `limit`: its index and the columns before it. */
export function rewritableCut(line: string, limit = line.length): { length: number; width: number } {
  let best = { length: 0, width: 0 };
  for (const [length, width] of cutPoints(line))
    if (length <= limit && length >= best.length) best = { length, width };
  return best;
}
