/**
 * How many terminal columns plain text takes (no escape sequences): two for East Asian wide and
 * fullwidth characters and for emoji shown as emoji, none for marks and format characters that
 * join others, one for the rest — counted per user-perceived character, so a family emoji made of
 * several joined ones is two columns, not eight.
 */

import { simpleWidth } from '../terminal/single-width';
import { graphemeSegments } from './grapheme-segments';

const WIDE =
  /[\u1100-\u115F\u231A\u231B\u2329\u232A\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uA960-\uA97F\uAC00-\uD7A3\uF900-\uFAFF\uFE10-\uFE19\uFE30-\uFE6F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{20000}-\u{3FFFD}]|\p{Emoji_Presentation}|\uFE0F/u;
const ZERO = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]+$/u;
/** Printable ASCII: a column a character, each its own grapheme (no segmenting needed). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export function displayWidth(text: string): number {
  // Most words of an answer; the segmenter was most of a streamed frame's wrapping time.
  if (PRINTABLE_ASCII.test(text)) return text.length;
  // Borders, bullets, arrows, accented letters: one column each, no segmenting either.
  const simple = simpleWidth(text);
  if (simple !== undefined) return simple;
  let width = 0;
  for (const { segment } of graphemeSegments(text)) {
    if (segment.length === 1 && segment.charCodeAt(0) >= 0x20 && segment.charCodeAt(0) < 0x7f) width += 1;
    else if (ZERO.test(segment)) continue;
    else width += WIDE.test(segment) ? 2 : 1;
  }
  return width;
}
