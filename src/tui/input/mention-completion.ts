/**
 * `@path` completion as the mention parser reads it back (interactive/mentions.ts): a path with a
 * space is only one mention when quoted, `@"src/my dir/a file.ts"`, so a suggestion for one is
 * written quoted; a folder is left open (its quote too) so completion goes on inside it.
 */
import type { FileSuggestion } from '../../interactive/file-index';
import type { Suggestion } from './prompt-input';

/** The path being completed in a mention token (`@src/a`, `@"src/my d`), without its quoting. */
export function mentionQuery(token: string): string {
  return token.replace(/^@"?/, '');
}

export function mentionSuggestion(file: FileSuggestion): Suggestion {
  // Folders come from the index ending in '/'.
  const needsQuotes = /\s/.test(file.path);
  const open = needsQuotes ? '@"' : '@';
  const value = file.kind === 'dir' ? `${open}${file.path}` : `${open}${file.path}${needsQuotes ? '"' : ''} `;
  return { value, label: `@${file.path}` };
}
