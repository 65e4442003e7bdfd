/**
 * Characters whose width needs no grapheme segmenting: each takes one column on its own, never
 * joins a neighbour into one grapheme, and is no emoji — printable ASCII, Latin, Greek and
 * Cyrillic letters, and the symbol blocks the views draw with (dashes, bullets, arrows, box
 * drawing, blocks, the braille spinner, and the few signs of the status line and tool rows).
 * single-width.test.ts checks every code point listed here against string-width, the width Ink
 * lays text out by.
 *
 * Why it matters: making the first Intl.Segmenter starts ICU and string-width's emoji
 * expressions compile (~20–30 ms on a small machine), and the REPL's first frame has non-ASCII
 * rows (the input box's border) — that cost sat on the launch's critical path. The Ink bundle's
 * ansi-tokenize walks such rows without segmenting too (scripts/lazy-intl.mjs).
 */

/** Signs the views use outside the ranges below. */
const SIGNS = new Set([0x23bf, 0x23ce, 0x23f5, 0x2610, 0x2612, 0x2713, 0x2717, 0x273b, 0x276f, 0x29d7]);

export function isSingleWidth(code: number): boolean {
  if (code >= 0x20 && code < 0x7f) return true;
  if (code >= 0xa0 && code < 0x300) return code !== 0xad; // Latin; not the soft hyphen
  if (code >= 0x370 && code < 0x530) return isGreekOrCyrillicLetter(code);
  return (
    (code >= 0x2010 && code <= 0x2027) || // dashes, quotes, bullet, ellipsis
    (code >= 0x2190 && code <= 0x21ff) || // arrows
    (code >= 0x2500 && code <= 0x259f) || // box drawing, block elements
    (code >= 0x25a0 && code <= 0x25fc) || // geometric shapes, less the two shown as emoji
    (code >= 0x2800 && code <= 0x28ff) || // braille (the spinner)
    SIGNS.has(code)
  );
}

/** Greek and Cyrillic, less the unassigned points and the combining marks (U+0483–U+0489). */
function isGreekOrCyrillicLetter(code: number): boolean {
  if (code >= 0x483 && code <= 0x489) return false;
  return !(
    code === 0x378 ||
    code === 0x379 ||
    (code >= 0x380 && code <= 0x383) ||
    code === 0x38b ||
    code === 0x38d ||
    code === 0x3a2
  );
}

/** The columns `text` takes when every character in it is single-width; undefined otherwise. */
export function simpleWidth(text: string): number | undefined {
  for (let i = 0; i < text.length; i++) if (!isSingleWidth(text.charCodeAt(i))) return undefined;
  return text.length;
}
