import { CSI, ERASE_LINE } from './frame-escapes';
import { cutPoints } from './text-width';

/**
 * What rewrites the part of a row that differs from what is shown, with the cursor on that row:
 * from the first changed column to the last, when the rest of the row is the same text in the
 * same columns (a key typed in the input box leaves the box's right border alone), else to the
 * end of the row; a row that got shorter is erased and written whole.
 */
export function rowRewrite(shown: string | undefined, next: string): string {
  const old = shown ?? '';
  let same = 0;
  const limit = Math.min(old.length, next.length);
  while (same < limit && old.charCodeAt(same) === next.charCodeAt(same)) same++;
  const nextCuts = cutPoints(next);
  const oldCuts = cutPoints(old);
  const start = nextCuts.lastAtOrBefore(same);
  let sameTail = 0;
  while (
    sameTail < limit - start &&
    old.charCodeAt(old.length - 1 - sameTail) === next.charCodeAt(next.length - 1 - sameTail)
  )
    sameTail++;
  let end = next.length;
  for (let index = next.length - sameTail; index < next.length; index++) {
    const column = nextCuts.get(index);
    if (column !== undefined && column === oldCuts.get(old.length - (next.length - index))) {
      end = index;
      break;
    }
  }
  const oldWidth = oldCuts.get(old.length);
  const nextWidth = nextCuts.get(next.length);
  const erase =
    end === next.length &&
    (oldWidth !== undefined && nextWidth !== undefined ? oldWidth > nextWidth : old.length > start);
  if (erase) {
    // The whole row, after erasing all of it: tmux keeps cells erased from mid-row as spaces of
    // the line (its copy mode and reflow see them), not so cells of a line erased whole.
    return `\r${ERASE_LINE}${next}`;
  }
  const column = nextCuts.get(start) as number;
  return `${start > 0 ? `${CSI}${column + 1}G` : '\r'}${next.slice(start, end)}`;
}
