/**
 * Renders a window of a text file as numbered lines (`N<TAB>line`), the way the model is used to
 * reading code, within a line count and a character budget.
 */

export const DEFAULT_LINE_LIMIT = 2000;
export const MAX_LINE_CHARS = 2000;
/** About 25k tokens: a read must leave room in the context for the work it serves. */
export const DEFAULT_OUTPUT_CHARS = 100_000;
export const LARGE_OUTPUT_CHARS = 400_000;

export type TextViewOptions = {
  /** 1-based number of the first line to show (0 is taken as 1). */
  offset?: number;
  limit?: number;
  maxChars?: number;
};

export type TextView = {
  /** The shown lines (long ones cut), joined by `\n`: the `file.content` of the output. */
  content: string;
  /** The same lines numbered, for the model. */
  numbered: string;
  startLine: number;
  numLines: number;
  totalLines: number;
  /** The character budget stopped the view before `limit` lines. */
  truncatedByTokenCap: boolean;
  cutLongLines: number;
};

/** Splits text into lines; a final line break does not start another (empty) line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function cutLongLine(line: string): { text: string; cut: boolean } {
  if (line.length <= MAX_LINE_CHARS) return { text: line, cut: false };
  let end = MAX_LINE_CHARS;
  // Never split a surrogate pair: half an emoji is an invalid string for the API.
  const code = line.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return {
    text: `${line.slice(0, end)}… [line cut: ${line.length - end} more characters]`,
    cut: true,
  };
}

export function renderTextView(text: string, options: TextViewOptions = {}): TextView {
  const lines = splitLines(text);
  const startLine = Math.max(1, options.offset ?? 1);
  const limit = options.limit ?? DEFAULT_LINE_LIMIT;
  const maxChars = options.maxChars ?? DEFAULT_OUTPUT_CHARS;
  const shown: string[] = [];
  const numbered: string[] = [];
  let chars = 0;
  let cutLongLines = 0;
  let truncatedByTokenCap = false;
  const end = Math.min(lines.length, startLine - 1 + limit);
  for (let index = startLine - 1; index < end; index++) {
    const { text: lineText, cut } = cutLongLine(lines[index]!);
    const entry = `${index + 1}\t${lineText}`;
    // Always show at least one line, or the model could never page past a huge one.
    if (shown.length > 0 && chars + entry.length + 1 > maxChars) {
      truncatedByTokenCap = true;
      break;
    }
    if (cut) cutLongLines++;
    shown.push(lineText);
    numbered.push(entry);
    chars += entry.length + 1;
  }
  return {
    content: shown.join('\n'),
    numbered: numbered.join('\n'),
    startLine,
    numLines: shown.length,
    totalLines: lines.length,
    truncatedByTokenCap,
    cutLongLines,
  };
}

/** The note after the lines that tells the model what it did not see and how to get it. */
export function describeTextView(view: TextView): string | undefined {
  const notes: string[] = [];
  const lastShown = view.startLine + view.numLines - 1;
  if (view.totalLines === 0) return 'The file is empty.';
  if (view.numLines === 0) {
    return `The file has ${view.totalLines} lines; offset ${view.startLine} is past its end.`;
  }
  if (view.startLine > 1 || lastShown < view.totalLines) {
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
