/** The text the model sees for a Grep result, in each output mode. */
import { pathForModel } from '../glob/search-results';
import { skippedNote } from '../shared/deny-exclusions';
import type { GrepMode } from './args';

/** The `tool_use_result` shape (compat-surface §1.1). */
export type GrepOutput = {
  mode: GrepMode;
  numFiles: number;
  filenames: string[];
  content?: string;
  numLines?: number;
  numMatches?: number;
  appliedLimit?: number;
  appliedOffset?: number;
  /** Files left out because Read deny rules cover them (null: some, the count is unknown). */
  deniedSkipped?: number | null;
};

const NO_MATCHES = 'No matches found';

function pagingNote(output: GrepOutput, unit: string): string | undefined {
  if (output.appliedLimit === undefined) return undefined;
  const next = (output.appliedOffset ?? 0) + output.appliedLimit;
  return `(Showing ${output.appliedLimit} ${unit}${output.appliedOffset ? ` from offset ${output.appliedOffset}` : ''}; more exist. Pass offset: ${next} for the next page, or narrow the search.)`;
}

/**
 * `cwd` makes paths relative (absent when rebuilding text from stored data); `capped` says the
 * search stopped at its safety limit, so the model should narrow it rather than trust the totals.
 */
export function renderGrepResult(output: GrepOutput, cwd: string | undefined, capped = false): string {
  const body = renderMatches(output, cwd, capped);
  const skipped = output.deniedSkipped;
  const note = skipped === undefined ? undefined : skippedNote(skipped ?? undefined);
  return note ? `${body}\n${note}` : body;
}

function renderMatches(output: GrepOutput, cwd: string | undefined, capped: boolean): string {
  const parts: string[] = [];
  if (output.mode === 'files_with_matches') {
    if (output.numFiles === 0) return NO_MATCHES;
    parts.push(`Found ${output.numFiles} file${output.numFiles === 1 ? '' : 's'}`);
    parts.push(...output.filenames.map((file) => (cwd ? pathForModel(file, cwd) : file)));
    const note = pagingNote(output, 'files');
    if (note) parts.push('', note);
  } else if (output.mode === 'count') {
    if (output.numFiles === 0) return NO_MATCHES;
    parts.push(output.content ?? '');
    const matches = output.numMatches ?? 0;
    parts.push(
      '',
      `Found ${matches} total occurrence${matches === 1 ? '' : 's'} across ${output.numFiles} file${output.numFiles === 1 ? '' : 's'}.`,
    );
    const note = pagingNote(output, 'files');
    if (note) parts.push(note);
  } else {
    if (!output.content) return NO_MATCHES;
    parts.push(output.content);
    const note = pagingNote(output, 'lines');
    if (note) parts.push('', note);
  }
  if (capped)
    parts.push('(The search stopped early because it matched too much; narrow the pattern, path or glob.)');
  return parts.join('\n');
}
