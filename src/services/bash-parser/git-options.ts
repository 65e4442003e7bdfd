/**
 * The option families git shares between subcommands (git 2.39, from `git diff -h`, git-log(1),
 * git-rev-list(1) and revision.c): diff options, revision walking and commit formatting. Values
 * that git only takes glued (`--pretty=x`, `--decorate=x`) are OPTIONAL so that a following word
 * is never mistaken for their value.
 */
import { FLAG, OPTIONAL, type OptionSpec, READ, run, type TableSource, VALUE, write } from './option-table';

type Options = Record<string, OptionSpec>;

/** git-diff(1) "OPTIONS" shared by diff, log, show, stash show and friends. */
export const GIT_DIFF_OPTIONS: Options = {
  'p patch': FLAG,
  's no-patch': FLAG,
  u: FLAG,
  'U unified': OPTIONAL,
  'W function-context': FLAG,
  raw: FLAG,
  'patch-with-raw': FLAG,
  'patch-with-stat': FLAG,
  numstat: FLAG,
  shortstat: FLAG,
  'X dirstat': OPTIONAL,
  cumulative: FLAG,
  'dirstat-by-file': OPTIONAL,
  check: FLAG,
  summary: FLAG,
  'name-only': FLAG,
  'name-status': FLAG,
  stat: OPTIONAL,
  'stat-width stat-name-width stat-graph-width stat-count': VALUE,
  'compact-summary': FLAG,
  binary: FLAG,
  'full-index': FLAG,
  color: OPTIONAL,
  'no-color': FLAG,
  'ws-error-highlight': VALUE,
  z: FLAG,
  abbrev: OPTIONAL,
  'no-abbrev': FLAG,
  'src-prefix dst-prefix line-prefix': VALUE,
  'no-prefix default-prefix': FLAG,
  'inter-hunk-context': VALUE,
  'output-indicator-new output-indicator-old output-indicator-context': VALUE,
  'B break-rewrites': OPTIONAL,
  'M find-renames': OPTIONAL,
  'D irreversible-delete': FLAG,
  'C find-copies': OPTIONAL,
  'find-copies-harder': FLAG,
  'no-renames': FLAG,
  'rename-empty no-rename-empty': FLAG,
  follow: FLAG,
  l: VALUE,
  minimal: FLAG,
  'w ignore-all-space': FLAG,
  'b ignore-space-change': FLAG,
  'ignore-space-at-eol ignore-cr-at-eol ignore-blank-lines': FLAG,
  'I ignore-matching-lines': VALUE,
  'indent-heuristic no-indent-heuristic': FLAG,
  'patience histogram': FLAG,
  'diff-algorithm': VALUE,
  anchored: VALUE,
  'word-diff': OPTIONAL,
  'word-diff-regex': VALUE,
  'color-words': OPTIONAL,
  'color-moved': OPTIONAL,
  'no-color-moved no-color-moved-ws': FLAG,
  'color-moved-ws': VALUE,
  relative: OPTIONAL,
  'no-relative': FLAG,
  'a text': FLAG,
  R: FLAG,
  'exit-code': FLAG,
  quiet: FLAG,
  'ext-diff': run('runs the external diff program the repository configures', 'none'),
  'no-ext-diff': FLAG,
  textconv: run('runs the text conversion filters the repository configures', 'none'),
  'no-textconv': FLAG,
  'ignore-submodules': OPTIONAL,
  submodule: OPTIONAL,
  'ita-invisible-in-index ita-visible-in-index': FLAG,
  S: VALUE,
  G: VALUE,
  'pickaxe-all pickaxe-regex': FLAG,
  O: READ,
  'rotate-to skip-to': VALUE,
  'find-object': VALUE,
  'diff-filter': VALUE,
  output: write('writes its output to a file'),
};

/** Revision walking and commit formatting: git-rev-list(1) / git-log(1), revision.c. */
export const GIT_REV_OPTIONS: Options = {
  'n max-count': VALUE,
  skip: VALUE,
  'since after since-as-filter until before max-age min-age': VALUE,
  'author committer grep grep-reflog': VALUE,
  'all-match invert-grep': FLAG,
  'i regexp-ignore-case': FLAG,
  'basic-regexp': FLAG,
  'E extended-regexp': FLAG,
  'F fixed-strings': FLAG,
  'P perl-regexp': FLAG,
  'remove-empty merges no-merges': FLAG,
  'min-parents max-parents': VALUE,
  'no-min-parents no-max-parents': FLAG,
  'first-parent exclude-first-parent-only not all': FLAG,
  'branches tags remotes': OPTIONAL,
  'glob exclude exclude-hidden': VALUE,
  'reflog alternate-refs single-worktree ignore-missing bisect': FLAG,
  // Reads revisions from standard input: names, not files.
  stdin: FLAG,
  'cherry-mark cherry-pick left-only right-only cherry': FLAG,
  'g walk-reflogs': FLAG,
  'merge boundary': FLAG,
  'simplify-by-decoration show-pulls full-history dense sparse simplify-merges': FLAG,
  'ancestry-path': OPTIONAL,
  'date-order author-date-order topo-order reverse': FLAG,
  'no-walk': OPTIONAL,
  'do-walk': FLAG,
  pretty: OPTIONAL,
  format: VALUE,
  'abbrev-commit no-abbrev-commit oneline': FLAG,
  encoding: VALUE,
  'expand-tabs': OPTIONAL,
  'no-expand-tabs': FLAG,
  'notes show-notes': OPTIONAL,
  'no-notes standard-notes no-standard-notes': FLAG,
  // Verifying a signature runs gpg (or the gpg.program the configuration names).
  'show-signature': run('runs gpg to verify signatures', 'none'),
  'relative-date': FLAG,
  date: VALUE,
  'parents children left-right graph': FLAG,
  'show-linear-break': OPTIONAL,
  c: FLAG,
  cc: FLAG,
  m: FLAG,
  'diff-merges': VALUE,
  'no-diff-merges combined-all-paths remerge-diff': FLAG,
  t: FLAG,
  r: FLAG,
  root: FLAG,
  'show-all unsorted-input in-commit-order': FLAG,
};

/** What only `git log`/`show`/`whatchanged` add (builtin/log.c). */
export const GIT_LOG_OPTIONS: Options = {
  'full-diff log-size source clear-decorations': FLAG,
  'use-mailmap mailmap no-use-mailmap no-mailmap': FLAG,
  decorate: OPTIONAL,
  'no-decorate': FLAG,
  'decorate-refs decorate-refs-exclude': VALUE,
  // `-L START,END:FILE`: the file is read (from the history).
  L: VALUE,
  q: FLAG,
};

/** Only `git rev-list` (git-rev-list(1)). */
export const GIT_REV_LIST_OPTIONS: Options = {
  'count header no-commit-header commit-header timestamp': FLAG,
  'objects objects-edge objects-edge-aggressive indexed-objects unpacked object-names no-object-names': FLAG,
  filter: VALUE,
  'no-filter filter-provided-objects filter-print-omitted exclude-promisor-objects': FLAG,
  missing: VALUE,
  'bisect-vars bisect-all use-bitmap-index': FLAG,
  progress: VALUE,
  'disk-usage': OPTIONAL,
  quiet: FLAG,
};

/** `options` without the given option names (where a subcommand gives a letter its own meaning). */
export function without(options: Options, names: readonly string[]): Options {
  const out: Options = {};
  for (const [key, spec] of Object.entries(options)) {
    const kept = key.split(' ').filter((name) => !names.includes(name));
    if (kept.length > 0) out[kept.join(' ')] = spec;
  }
  return out;
}

export const gitTable = (
  sub: string,
  options: Options,
  operands: TableSource['operands'],
  extra: Partial<TableSource> = {},
): TableSource => ({
  manual: `git 2.39, git ${sub} -h and git-${sub}(1)`,
  // `-h` prints the usage. `--help` is absent: it opens the manual in a viewer the configuration picks.
  options: { h: FLAG, ...options },
  operands,
  // git's parse-options accepts `--no-NAME` for most options; turning one off is harmless.
  negatable: true,
  ...extra,
});
