/**
 * The git subcommands that only read (git 2.39, each from `git <sub> -h` and its manual), with
 * their full option tables. Operands are revisions and pathspecs: read as paths, so the project
 * boundary and deny rules see `git diff /etc/passwd x` (which git runs as `--no-index`) and
 * `git grep KEY -- .env`. The list modes of branch/tag/config/remote/stash/reflog/worktree are
 * in `git-list-modes.ts`.
 */
import {
  GIT_DIFF_OPTIONS,
  GIT_LOG_OPTIONS,
  GIT_REV_LIST_OPTIONS,
  GIT_REV_OPTIONS,
  gitTable,
  without,
} from './git-options';
import {
  DATA,
  FLAG,
  mode,
  OPTIONAL,
  type OperandLayout,
  READ,
  run,
  type TableSource,
  VALUE,
  write,
} from './option-table';

/** git reads a symlink as the text it holds (a blob), never following it. */
const reads = (recursive: boolean, whenNone?: string[]): OperandLayout => ({
  leading: [],
  rest: 'read',
  recursive,
  followsLinks: false,
  ...(whenNone ? { whenNone } : {}),
});

const LOG_FAMILY = { ...GIT_REV_OPTIONS, ...GIT_DIFF_OPTIONS, ...GIT_LOG_OPTIONS };

const GREP = gitTable(
  'grep',
  {
    'cached no-index untracked exclude-standard no-exclude-standard recurse-submodules': FLAG,
    'v invert-match': FLAG,
    'i ignore-case': FLAG,
    'w word-regexp': FLAG,
    'a text': FLAG,
    I: FLAG,
    textconv: run('runs the text conversion filters the repository configures', 'none'),
    'no-textconv': FLAG,
    'r recursive': FLAG,
    'max-depth': VALUE,
    'E extended-regexp': FLAG,
    'G basic-regexp': FLAG,
    'F fixed-strings': FLAG,
    'P perl-regexp': FLAG,
    'n line-number': FLAG,
    column: FLAG,
    h: FLAG,
    H: FLAG,
    'full-name': FLAG,
    'l files-with-matches name-only': FLAG,
    'L files-without-match': FLAG,
    'z null': FLAG,
    'o only-matching': FLAG,
    'c count': FLAG,
    color: OPTIONAL,
    'break heading': FLAG,
    'C context': VALUE,
    'B before-context': VALUE,
    'A after-context': VALUE,
    threads: VALUE,
    'p show-function': FLAG,
    'W function-context': FLAG,
    f: { ...READ, mode: 'pattern' },
    e: mode('pattern', 'required'),
    'and or not all-match': FLAG,
    'q quiet': FLAG,
    'O open-files-in-pager': run('opens the matching files in a pager program', 'optional'),
    'ext-grep': FLAG,
    'm max-count': VALUE,
  },
  (modes) => ({
    leading: modes.has('pattern') ? [] : ['data'],
    rest: 'read',
    recursive: true,
    followsLinks: false,
    whenNone: ['.'],
  }),
  { numeric: true },
);

// blame reads its own options first and passes the rest to the revision walk.
const BLAME_OPTIONS = {
  ...without(GIT_REV_OPTIONS, ['n', 'c', 't', 'l', 's', 'w', 'b', 'e', 'f', 'p', 'M', 'C', 'L', 'S', 'root']),
  'incremental b root show-stats progress score-debug': FLAG,
  'f show-name': FLAG,
  'n show-number': FLAG,
  'p porcelain': FLAG,
  'line-porcelain c t l s w': FLAG,
  'e show-email': FLAG,
  'ignore-rev': VALUE,
  'ignore-revs-file': READ,
  'color-lines color-by-age minimal': FLAG,
  S: READ,
  // Blames the given file's contents instead of the work tree's: a read of that file.
  contents: READ,
  C: OPTIONAL,
  M: OPTIONAL,
  L: VALUE,
  abbrev: OPTIONAL,
  textconv: run('runs the text conversion filters the repository configures', 'none'),
  'no-textconv': FLAG,
};

export const GIT_SUBCOMMANDS: Record<string, TableSource> = {
  status: gitTable(
    'status',
    {
      'v verbose': FLAG,
      's short': FLAG,
      'b branch': FLAG,
      'show-stash ahead-behind no-ahead-behind long renames no-renames': FLAG,
      porcelain: OPTIONAL,
      'z null': FLAG,
      'u untracked-files': OPTIONAL,
      ignored: OPTIONAL,
      'ignore-submodules': OPTIONAL,
      column: OPTIONAL,
      'no-column': FLAG,
      'M find-renames': OPTIONAL,
    },
    reads(false),
  ),
  log: gitTable('log', LOG_FAMILY, reads(true), { numeric: true }),
  whatchanged: gitTable('whatchanged', LOG_FAMILY, reads(true), { numeric: true }),
  show: gitTable('show', LOG_FAMILY, reads(true), { numeric: true }),
  diff: gitTable(
    'diff',
    {
      ...GIT_DIFF_OPTIONS,
      // With --no-index (or a path outside the work tree) the operands are any two paths.
      'no-index cached staged merge-base': FLAG,
      '0 1 2 3 base ours theirs c cc': FLAG,
    },
    // What it prints of the work tree is tracked content: judged by the tracked files (showsRepositoryContent).
    reads(true),
  ),
  'rev-list': gitTable('rev-list', { ...GIT_REV_OPTIONS, ...GIT_REV_LIST_OPTIONS }, reads(false), {
    numeric: true,
  }),
  shortlog: gitTable(
    'shortlog',
    {
      ...without(GIT_REV_OPTIONS, ['c', 'n', 's', 'e', 'w', 'committer']),
      'c committer': FLAG,
      'n numbered': FLAG,
      's summary': FLAG,
      'e email': FLAG,
      w: OPTIONAL,
      group: VALUE,
    },
    reads(false),
    { numeric: true },
  ),
  // Tracked content to standard output (calibrated: `git archive HEAD -- src | tar -t` lists src's
  // files); `-o` writes the archive (it created the file), `--add-file` reads an untracked file
  // into it (`/etc/hostname` was archived), and `--remote` with `--exec` runs a program (`--remote=.
  // --exec='touch ran; git-upload-archive'` touched ran).
  archive: gitTable(
    'archive',
    {
      'format prefix add-virtual-file': VALUE,
      'add-file': READ,
      'o output': write('writes the archive to a file'),
      'worktree-attributes': FLAG,
      'v verbose': FLAG,
      'l list': FLAG,
      remote: run('fetches the archive from another repository, whose transport can run a program'),
      exec: run('runs the named program to make the archive'),
    },
    reads(true),
    { numeric: true },
  ),
  blame: gitTable('blame', BLAME_OPTIONS, reads(false)),
  annotate: gitTable('annotate', BLAME_OPTIONS, reads(false)),
  grep: GREP,
  'rev-parse': gitTable(
    'rev-parse',
    {
      'parseopt sq-quote keep-dashdash stop-at-non-option stuck-long revs-only no-revs flags no-flags': FLAG,
      'default prefix': VALUE,
      'verify sq not symbolic symbolic-full-name all local-env-vars': FLAG,
      'q quiet': FLAG,
      short: OPTIONAL,
      'abbrev-ref': OPTIONAL,
      'branches tags remotes': OPTIONAL,
      'glob exclude exclude-hidden disambiguate path-format': VALUE,
      'git-dir git-common-dir show-toplevel show-superproject-working-tree shared-index-path': FLAG,
      'absolute-git-dir is-inside-git-dir is-inside-work-tree is-bare-repository is-shallow-repository': FLAG,
      'show-cdup show-prefix': FLAG,
      'show-object-format': OPTIONAL,
      'resolve-git-dir': READ,
      'git-path': VALUE,
      'since after until before': VALUE,
    },
    reads(false),
  ),
  'ls-files': gitTable(
    'ls-files',
    {
      'z t v f': FLAG,
      'c cached': FLAG,
      'd deleted': FLAG,
      'm modified': FLAG,
      'o others': FLAG,
      'i ignored': FLAG,
      's stage': FLAG,
      'k killed': FLAG,
      'directory no-empty-directory empty-directory eol': FLAG,
      'u unmerged': FLAG,
      'resolve-undo': FLAG,
      'x exclude': VALUE,
      'X exclude-from': READ,
      'exclude-per-directory': VALUE,
      'exclude-standard full-name recurse-submodules error-unmatch debug deduplicate sparse': FLAG,
      'with-tree': VALUE,
      abbrev: OPTIONAL,
      format: VALUE,
    },
    reads(false),
  ),
  'ls-tree': gitTable(
    'ls-tree',
    {
      'd r t z': FLAG,
      'l long': FLAG,
      'name-only name-status object-only full-name full-tree': FLAG,
      format: VALUE,
      abbrev: OPTIONAL,
    },
    reads(false),
  ),
  describe: gitTable(
    'describe',
    {
      'contains debug all tags long first-parent exact-match always': FLAG,
      abbrev: OPTIONAL,
      'candidates match exclude': VALUE,
      'dirty broken': OPTIONAL,
    },
    DATA,
  ),
  'cat-file': gitTable(
    'cat-file',
    {
      'e p t s': FLAG,
      'allow-unknown-type use-mailmap mailmap': FLAG,
      'batch batch-check batch-command': OPTIONAL,
      z: FLAG,
      'batch-all-objects buffer follow-symlinks unordered': FLAG,
      textconv: run('runs the text conversion filters the repository configures', 'none'),
      filters: run('runs the clean/smudge filters the repository configures', 'none'),
      path: VALUE,
    },
    reads(false),
  ),
  'show-ref': gitTable(
    'show-ref',
    {
      'tags heads verify head': FLAG,
      'd dereference': FLAG,
      's hash': OPTIONAL,
      abbrev: OPTIONAL,
      'q quiet': FLAG,
      'exclude-existing': OPTIONAL,
    },
    DATA,
  ),
  'for-each-ref': gitTable(
    'for-each-ref',
    {
      's shell': FLAG,
      'p perl': FLAG,
      'python tcl ignore-case omit-empty': FLAG,
      'count sort points-at merged no-merged contains no-contains': VALUE,
      // Its own entry, so the signature check sees it as --format.
      format: VALUE,
      color: OPTIONAL,
    },
    DATA,
  ),
  'merge-base': gitTable(
    'merge-base',
    { 'a all': FLAG, 'octopus independent is-ancestor fork-point': FLAG },
    DATA,
  ),
  'name-rev': gitTable(
    'name-rev',
    { 'name-only tags all stdin annotate-stdin undefined always': FLAG, 'refs exclude': VALUE },
    DATA,
  ),
  'count-objects': gitTable('count-objects', { 'v verbose': FLAG, 'H human-readable': FLAG }, DATA),
  'check-ignore': gitTable(
    'check-ignore',
    { 'q quiet': FLAG, 'v verbose': FLAG, 'stdin z no-index': FLAG, 'n non-matching': FLAG },
    reads(false),
  ),
  cherry: gitTable('cherry', { abbrev: OPTIONAL, 'v verbose': FLAG }, DATA),
  'show-branch': gitTable(
    'show-branch',
    {
      'a all': FLAG,
      'r remotes': FLAG,
      color: OPTIONAL,
      more: OPTIONAL,
      'list no-name current sha1-name merge-base independent topo-order topics sparse date-order': FLAG,
      'g reflog': OPTIONAL,
    },
    DATA,
  ),
  var: gitTable('var', { l: FLAG }, DATA),
  version: gitTable('version', { 'build-options': FLAG }, DATA),
};

/** Log-like subcommands whose `--pretty`/`--format` may ask for signatures (`%G?`), which runs gpg. */
export const FORMATS_COMMITS: ReadonlySet<string> = new Set([
  'log',
  'whatchanged',
  'show',
  'rev-list',
  'shortlog',
]);
