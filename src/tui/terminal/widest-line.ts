/**
 * What Ink's vendor bundle imports in place of `widest-line` (scripts/esbuild-plugins.mjs): the
 * same function — the widest line's width by `string-width` — with each line's width remembered.
 * Ink measures every text node's text on every frame to decide whether it must be wrapped; while an
 * answer streams that is the same highlighted rows (escape codes, wide characters: string-width's
 * slow path) again and again, and only the row being written is new. A line's width is a pure
 * function of the line, so a memo changes nothing on screen; it is renewed when it grows large, as
 * Ink's own per-frame caches are (src/tui/terminal/ink-output-seam.ts's neighbours).
 */
import stringWidth from './fast-string-width';

const MAX_REMEMBERED = 4000;

let widths = new Map<string, number>();

function lineWidth(line: string): number {
  let width = widths.get(line);
  if (width === undefined) {
    width = stringWidth(line);
    if (widths.size >= MAX_REMEMBERED) widths = new Map();
    widths.set(line, width);
  }
  return width;
}

export default function widestLine(text: string): number {
  let widest = 0;
  for (const line of text.split('\n')) widest = Math.max(widest, lineWidth(line));
  return widest;
}
