/** Diffs of a tool's change: `structuredPatch` hunks for the output data, a short unified snippet for the model. */
import { structuredPatch } from 'diff';
import { toLf } from './text-format';

export type PatchHunk = {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
};

const CONTEXT_LINES = 3;

/** Hunks between two versions; CRLF is compared as LF so a Windows file's diff lines stay clean. */
export function makePatch(path: string, before: string, after: string): PatchHunk[] {
  return structuredPatch(path, path, toLf(before), toLf(after), undefined, undefined, {
    context: CONTEXT_LINES,
  }).hunks.map(({ oldStart, oldLines, newStart, newLines, lines }) => ({
    oldStart,
    oldLines,
    newStart,
    newLines,
    lines,
  }));
}

/** A unified-diff excerpt of at most `maxLines` lines, saying how much was left out. */
export function formatPatchSnippet(hunks: PatchHunk[], maxLines = 40): string {
  const out: string[] = [];
  let total = 0;
  for (const hunk of hunks) total += hunk.lines.length + 1;
  for (const hunk of hunks) {
    if (out.length >= maxLines) break;
    out.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
    for (const line of hunk.lines) {
      if (out.length >= maxLines) break;
      out.push(line);
    }
  }
  if (total > out.length) out.push(`… (${total - out.length} more diff lines)`);
  return out.join('\n');
}

/** Added and removed line counts, for one-line summaries. */
export function countChanges(hunks: PatchHunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  return { added, removed };
}
