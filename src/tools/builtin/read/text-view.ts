/**
 * The shape of a page of a text file as Read shows it: numbered lines (`N<TAB>line`), the way the
 * model is used to reading code, within a line count and a character budget, and the note that
 * says what was left out and how to get it.
 */
import { formatSize } from '../shared/regular-file';

export const DEFAULT_LINE_LIMIT = 2000;
export const MAX_LINE_CHARS = 2000;
/** About 25k tokens: a read must leave room in the context for the work it serves. */
export const DEFAULT_OUTPUT_CHARS = 100_000;
export const LARGE_OUTPUT_CHARS = 400_000;
/** The mark a cut line ends with (see line-window's `cutLine`). */
export const LINE_CUT_NOTE = /… \[line cut: \d+ more characters\]$/;

export type TextView = {
  /** The shown lines (long ones cut), joined by `\n`: the `file.content` of the output. */
  content: string;
  /** The same lines numbered, for the model. */
  numbered: string;
  startLine: number;
  numLines: number;
  /** Lines in the file; when `counted` is false, only those seen before reading stopped. */
  totalLines: number;
  /** False when the file was too large to read to its end just to count its lines. */
  counted: boolean;
  /** The file's size in bytes, for the note on a file that was not counted. */
  fileSize: number;
  /** The character budget stopped the view before `limit` lines. */
  truncatedByTokenCap: boolean;
  cutLongLines: number;
};

/** The note after the lines that tells the model what it did not see and how to get it. */
export function describeTextView(view: TextView): string | undefined {
  const notes: string[] = [];
  const lastShown = view.startLine + view.numLines - 1;
  if (view.totalLines === 0) return 'The file is empty.';
  if (view.numLines === 0) {
    return `The file has ${view.totalLines} lines; offset ${view.startLine} is past its end.`;
  }
  if (!view.counted) {
    let note = `Showing lines ${view.startLine}-${lastShown} of a ${formatSize(view.fileSize)} file`;
    if (view.truncatedByTokenCap) note += ' (output size limit reached)';
    note +=
      `; a file this large is read only up to the page asked for, so its lines were not counted. Read on with offset: ${lastShown + 1}` +
      ' (a far offset takes longer: the file is read up to it). To count its lines or see its end, use Bash (`wc -l`, `tail -n 100`).';
    notes.push(note);
  } else if (view.startLine > 1 || lastShown < view.totalLines) {
    let note = `Showing lines ${view.startLine}-${lastShown} of ${view.totalLines}`;
    if (view.truncatedByTokenCap) note += ' (output size limit reached)';
    if (lastShown < view.totalLines) note += `. Read on with offset: ${lastShown + 1}`;
    notes.push(`${note}.`);
  }
  if (view.cutLongLines > 0) {
    notes.push(
      `${view.cutLongLines} line(s) longer than ${MAX_LINE_CHARS} characters were cut; use Grep or Bash to see them whole.`,
    );
  }
  return notes.length > 0 ? notes.join(' ') : undefined;
}
