/** The part of a live-region frame a terminal can hold (see the frame writer). */
import { type CursorPosition, splitFrame } from './frame-types';

/**
 * A region taller than the screen shows its bottom rows (the newest lines, the input box): rows
 * above the screen's top could not be reached to redraw them, and Ink's own answer, clearing the
 * screen and printing the whole history again on every frame, is turned off
 * (scripts/esbuild-plugins.mjs). The rows left out are not lost for good: a finished paragraph
 * reaches the scrollback whole through the writer's writeAbove.
 */
export function fitFrame(
  frame: string,
  cursor: CursorPosition | undefined,
  height = 0,
): { text: string; cursor: CursorPosition | undefined } {
  if (height <= 1) return { text: frame, cursor };
  const { rows, trailing } = splitFrame(frame);
  // With a trailing newline the cursor rests on a row of its own below the region.
  const room = trailing ? height - 1 : height;
  if (rows.length <= room) return { text: frame, cursor };
  const hidden = rows.length - room;
  const text = rows.slice(hidden).join('\n') + (trailing ? '\n' : '');
  const y = cursor ? cursor.y - hidden : -1;
  return { text, cursor: cursor && y >= 0 ? { x: cursor.x, y } : undefined };
}
