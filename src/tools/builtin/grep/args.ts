/**
 * Turns Grep's input into a ripgrep argv. The argv goes straight to `spawn` (no shell), and the
 * pattern travels behind `-e` so one starting with `-` is never read as a flag.
 */
export type GrepMode = 'content' | 'files_with_matches' | 'count';

export type GrepArgsInput = {
  pattern: string;
  mode: GrepMode;
  glob?: string;
  type?: string;
  ignoreCase?: boolean;
  lineNumbers?: boolean;
  after?: number;
  before?: number;
  context?: number;
  onlyMatching?: boolean;
  multiline?: boolean;
  /** `!…` globs that keep files covered by Read deny rules out of the search. */
  exclude?: readonly string[];
};

/** Lines longer than this are shown as a preview, so one minified file cannot flood the result. */
export const MAX_COLUMNS = 500;

/** What picks the files searched, shared by the search and the listing that counts exclusions. */
function fileSelection(input: Pick<GrepArgsInput, 'glob' | 'type'>): string[] {
  // Dotfiles (.github, .env.example) are often what is being looked for; .git never is.
  const args = ['--color', 'never', '--no-config', '--hidden', '--glob', '!.git'];
  if (input.type) args.push('--type', input.type);
  if (input.glob) args.push('--glob', input.glob);
  return args;
}

/** The files a search with these filters would read (`rg --files`). */
export function listingArgs(input: Pick<GrepArgsInput, 'glob' | 'type'>, searchPath: string): string[] {
  return [...fileSelection(input), '--files', '--', searchPath];
}

export function buildGrepArgs(input: GrepArgsInput, searchPath: string): string[] {
  const args = [...fileSelection(input), '--max-columns', String(MAX_COLUMNS), '--max-columns-preview'];
  // After the caller's own glob: in ripgrep the last matching glob wins.
  for (const glob of input.exclude ?? []) args.push('--glob', glob);
  if (input.ignoreCase) args.push('--ignore-case');
  if (input.multiline) args.push('--multiline', '--multiline-dotall');

  if (input.mode === 'files_with_matches') {
    args.push('--files-with-matches');
  } else if (input.mode === 'count') {
    // Always name the file, even for a single-file search, so every line parses the same way.
    // A stable order keeps `offset` paging consistent between calls.
    args.push(input.onlyMatching ? '--count-matches' : '--count', '--with-filename', '--sort', 'path');
  } else {
    args.push('--no-heading', '--sort', 'path');
    if (input.lineNumbers !== false) args.push('--line-number');
    if (input.onlyMatching) args.push('--only-matching');
    if (input.context !== undefined) args.push('--context', String(input.context));
    if (input.before !== undefined) args.push('--before-context', String(input.before));
    if (input.after !== undefined) args.push('--after-context', String(input.after));
  }
  args.push('-e', input.pattern, '--', searchPath);
  return args;
}
