/**
 * Where a streaming answer can be cut: everything up to the last blank line outside a code
 * fence is complete markdown blocks that will not change, so it can go to the scrollback while
 * the rest is still arriving. That keeps the live region a few lines tall however long the
 * answer gets, which is what lets the terminal redraw only those lines. The cut keeps every
 * character (the settled part ends with its blank line), so the settled part renders exactly as
 * the top rows the streaming block showed, and those rows can stay on screen as they are.
 */

const FENCE = /^\s{0,3}(```|~~~)/;

export function splitSettled(text: string): { settled: string; rest: string } {
  let inFence = false;
  let cut = -1;
  let offset = 0;
  const lines = text.split('\n');
  // The last line has no newline yet: it is still being written, so it never counts as blank.
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i] as string;
    if (FENCE.test(line)) {
      inFence = !inFence;
      // A closed fence ends a block as well as a blank line does.
      if (!inFence) cut = offset + line.length + 1;
    } else if (!inFence && line.trim() === '') {
      cut = offset + line.length + 1;
    }
    offset += line.length + 1;
  }
  if (cut <= 0) return { settled: '', rest: text };
  return { settled: text.slice(0, cut), rest: text.slice(cut) };
}
