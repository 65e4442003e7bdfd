/**
 * One exact-string replacement on a file's text, in memory. Failures carry a message for the
 * model that says what to change, so Edit and MultiEdit word them the same way.
 */
import { describeNoMatch } from './closest-match';
import { type LineEnding, withLineEnding } from './text-format';

export type EditSpec = { old_string: string; new_string: string; replace_all?: boolean };

export class EditFailure extends Error {
  override name = 'EditFailure';
}

const MAX_LISTED_LINES = 10;

/**
 * Applies `edit` to `content`. In a CRLF file the model's `\n` stands for `\r\n`, both in what
 * it looks for and in what it writes, so the file keeps one line-ending style.
 */
export function applyEdit(
  content: string,
  edit: EditSpec,
  lineEnding: LineEnding,
  path: string,
): { content: string; replacements: number } {
  if (edit.old_string === edit.new_string) {
    throw new EditFailure('old_string and new_string are identical, so the edit would change nothing.');
  }
  if (edit.old_string === '') {
    if (content !== '') {
      throw new EditFailure(
        `An empty old_string only creates a file or fills an empty one, and ${path} has content. Give the text to replace, or use Write to replace the whole file.`,
      );
    }
    return { content: withLineEnding(edit.new_string, lineEnding), replacements: 1 };
  }
  let oldString = withLineEnding(edit.old_string, lineEnding);
  let newString = withLineEnding(edit.new_string, lineEnding);
  let positions = findAll(content, oldString);
  if (positions.length === 0 && oldString !== edit.old_string) {
    // A file with mixed line endings may hold the model's text with plain LF after all.
    oldString = edit.old_string;
    newString = edit.new_string;
    positions = findAll(content, oldString);
  }
  if (positions.length === 0) throw new EditFailure(describeNoMatch(content, edit.old_string, path));
  if (positions.length > 1 && !edit.replace_all) {
    const lines = positions.slice(0, MAX_LISTED_LINES).map((at) => lineNumberAt(content, at));
    const more = positions.length > MAX_LISTED_LINES ? ', …' : '';
    throw new EditFailure(
      `old_string occurs ${positions.length} times in ${path} (at lines ${lines.join(', ')}${more}). ` +
        'Include more surrounding lines to make it unique, or set replace_all: true to change every occurrence.',
    );
  }
  if (edit.replace_all)
    return { content: content.split(oldString).join(newString), replacements: positions.length };
  const at = positions[0]!;
  return {
    content: content.slice(0, at) + newString + content.slice(at + oldString.length),
    replacements: 1,
  };
}

/** Start offsets of the non-overlapping occurrences of `needle`. */
function findAll(haystack: string, needle: string): number[] {
  const positions: number[] = [];
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) {
    positions.push(at);
  }
  return positions;
}

function lineNumberAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
