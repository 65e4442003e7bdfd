/**
 * A screen row's cells back to a string with escape codes: Ink's `styledCharsToString`
 * (@alcalzone/ansi-tokenize), which the Ink vendor bundle calls in its place
 * (scripts/esbuild-plugins.mjs). Same output; the difference is the work between two cells of the
 * same style. The original diffs every cell's style against its neighbour's — three Sets and four
 * arrays per cell, even for two blanks — and Ink turns every row of the live frame into a string on
 * every frame: 100×30 cells made ~800 KB of garbage per keystroke, so the young generation filled
 * (and V8 stopped to scavenge) every dozen keys. A cell styled like its neighbour needs no codes, so
 * here that case is a comparison and no allocation; a style change still takes the library's diff.
 */
import { ansiCodesToString, diffAnsiCodes, type StyledChar } from '@alcalzone/ansi-tokenize';

type AnsiCode = StyledChar['styles'][number];

/** Whether going from one style to the other needs no escape code (the library's diff is empty). */
function sameStyles(from: readonly AnsiCode[], to: readonly AnsiCode[]): boolean {
  if (from === to) return true;
  if (from.length !== to.length) return false;
  for (let i = 0; i < from.length; i++) {
    const a = from[i] as AnsiCode;
    const b = to[i] as AnsiCode;
    if (a.code !== b.code || a.endCode !== b.endCode) return false;
  }
  return true;
}

const NO_STYLES: readonly AnsiCode[] = [];

export function styledCharsToString(chars: readonly StyledChar[]): string {
  let text = '';
  let styles: readonly AnsiCode[] = NO_STYLES;
  // Indexed: a for-of loop's iterator results are garbage too until V8 optimises the loop.
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] as StyledChar;
    if (!sameStyles(styles, char.styles)) text += ansiCodesToString(diffAnsiCodes([...styles], char.styles));
    text += char.value;
    styles = char.styles;
  }
  // Styles still open at the row's end are closed.
  if (styles.length > 0) text += ansiCodesToString(diffAnsiCodes([...styles], []));
  return text;
}
