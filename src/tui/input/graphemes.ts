/**
 * Where the cursor may stand in the input text: between user-perceived characters (grapheme
 * clusters), never inside one. An emoji is two UTF-16 units (a family emoji or a flag many more);
 * a cursor between them would split a surrogate pair, and a lone surrogate in a prompt makes the
 * API refuse the request as invalid JSON — in every later turn too, since the transcript keeps it.
 * Only the line around the cursor is segmented, so a key costs the same in a long text.
 */
import { graphemeSegments } from '../views/grapheme-segments';

function lineBounds(text: string, index: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const newline = text.indexOf('\n', index);
  return { start, end: newline < 0 ? text.length : newline };
}

/** The start of the character that ends at or spans `index` (index itself when it is a boundary). */
export function boundaryAtOrBefore(text: string, index: number): number {
  if (index <= 0) return 0;
  if (index >= text.length) return text.length;
  const { start, end } = lineBounds(text, index);
  let at = start;
  for (const { index: offset } of graphemeSegments(text.slice(start, end))) {
    if (start + offset > index) break;
    at = start + offset;
  }
  return at;
}

/** The boundary one character before `index` (a newline counts as one character). */
export function previousBoundary(text: string, index: number): number {
  if (index <= 0) return 0;
  if (text[index - 1] === '\n') return index - 1;
  return boundaryAtOrBefore(text, index - 1);
}

/** The boundary one character after `index`. */
export function nextBoundary(text: string, index: number): number {
  if (index >= text.length) return text.length;
  if (text[index] === '\n') return index + 1;
  const { end } = lineBounds(text, index);
  const first = graphemeSegments(text.slice(index, end))[Symbol.iterator]().next();
  return first.done ? end : index + first.value.segment.length;
}

/** The text without its last character (Backspace in a one-line field). */
export function withoutLastCharacter(text: string): string {
  return text.slice(0, previousBoundary(text, text.length));
}
