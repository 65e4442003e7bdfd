/**
 * Which `git` invocations only read the repository: a subcommand allowlist plus per-subcommand
 * checks for the list-or-modify commands (`branch`, `tag`, `remote`, `config`, `stash`, `reflog`).
 */

/** Subcommands that never modify the repository, whatever their arguments (bar `--output`). */
export const GIT_READ_ONLY_SUBCOMMANDS: ReadonlySet<string> = new Set([
  'status',
  'log',
  'diff',
  'show',
  'rev-parse',
  'ls-files',
  'ls-tree',
  'blame',
  'annotate',
  'grep',
  'shortlog',
  'describe',
  'cat-file',
  'show-ref',
  'for-each-ref',
  'merge-base',
  'name-rev',
  'rev-list',
  'count-objects',
  'whatchanged',
  'check-ignore',
  'cherry',
  'show-branch',
  'var',
  'version',
]);

const BRANCH_LIST_FLAGS = new Set([
  '-a',
  '--all',
  '-r',
  '--remotes',
  '-v',
  '-vv',
  '--verbose',
  '-l',
  '--list',
  '--show-current',
  '-i',
  '--ignore-case',
  '--no-color',
  '--no-column',
  '--no-abbrev',
  '--omit-empty',
]);
const TAG_LIST_FLAGS = new Set([
  '-l',
  '--list',
  '-i',
  '--ignore-case',
  '--no-column',
  '--no-color',
  '--omit-empty',
]);
/** Options that take the next word as a value (a commit, a pattern). */
const LIST_OPTIONS_WITH_VALUE = new Set([
  '--contains',
  '--no-contains',
  '--merged',
  '--no-merged',
  '--points-at',
  '--sort',
  '--format',
]);
const LIST_OPTION_PREFIXES = ['--format=', '--sort=', '--color', '--column', '--abbrev=', '-n'];

/** `git branch`/`git tag` in list mode: positionals are only allowed as patterns after `--list`. */
function isListInvocation(args: readonly string[], flags: ReadonlySet<string>): boolean {
  const listMode = args.includes('-l') || args.includes('--list');
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (flags.has(arg)) continue;
    if (LIST_OPTIONS_WITH_VALUE.has(arg)) {
      i++;
      continue;
    }
    if (LIST_OPTION_PREFIXES.some((prefix) => arg.startsWith(prefix))) continue;
    if (arg.includes('=') && LIST_OPTIONS_WITH_VALUE.has(arg.slice(0, arg.indexOf('=')))) continue;
    if (!arg.startsWith('-') && listMode) continue;
    return false;
  }
  return true;
}

const CONFIG_READ_FLAGS = [
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  '--list',
  '-l',
  '--get-color',
];
const CONFIG_WRITE_FLAGS = [
  '--add',
  '--unset',
  '--unset-all',
  '--replace-all',
  '--edit',
  '-e',
  '--rename-section',
  '--remove-section',
];

function isReadOnlyGitSubcommand(subcommand: string, args: readonly string[]): boolean {
  // `git log --output=f`, `git diff --output f` write a file.
  if (args.some((arg) => arg.startsWith('--output'))) return false;
  if (subcommand === 'grep' && args.some((a) => a === '-O' || a.startsWith('--open-files-in-pager'))) {
    return false;
  }
  if (GIT_READ_ONLY_SUBCOMMANDS.has(subcommand)) return true;
  const positionals = args.filter((arg) => !arg.startsWith('-'));
  switch (subcommand) {
    case 'branch':
      return isListInvocation(args, BRANCH_LIST_FLAGS);
    case 'tag':
      return isListInvocation(args, TAG_LIST_FLAGS);
    case 'remote':
      return (
        args.every((arg) => arg === '-v' || arg === '--verbose') ||
        positionals[0] === 'get-url' ||
        positionals[0] === 'show'
      );
    case 'config':
      if (args.some((arg) => CONFIG_WRITE_FLAGS.includes(arg))) return false;
      return (
        args.some((arg) => CONFIG_READ_FLAGS.includes(arg)) ||
        positionals[0] === 'get' ||
        positionals[0] === 'list'
      );
    case 'stash':
      return positionals[0] === 'list' || positionals[0] === 'show';
    case 'reflog':
      return positionals[0] === undefined || positionals[0] === 'show' || /^\d+$/.test(positionals[0]);
    case 'worktree':
      return positionals[0] === 'list';
    default:
      return false;
  }
}

/**
 * `git` global options that are safe before the subcommand. `-c` is not: `-c core.pager=…` or
 * `-c alias.x=!cmd` runs arbitrary programs.
 */
const GIT_GLOBAL_FLAGS = new Set([
  '--no-pager',
  '-P',
  '--paginate',
  '-p',
  '--no-optional-locks',
  '--literal-pathspecs',
]);
const GIT_GLOBAL_WITH_VALUE = new Set(['-C', '--git-dir', '--work-tree', '--namespace']);

/** True when `git <args>` only reads the repository. */
export function isReadOnlyGit(args: readonly string[]): boolean {
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i] as string;
    if (GIT_GLOBAL_FLAGS.has(arg)) continue;
    if (GIT_GLOBAL_WITH_VALUE.has(arg)) {
      i++;
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq > 0 && GIT_GLOBAL_WITH_VALUE.has(arg.slice(0, eq))) continue;
    if (arg === '--version') return true;
    break;
  }
  const subcommand = args[i];
  if (subcommand === undefined || subcommand.startsWith('-')) return false;
  return isReadOnlyGitSubcommand(subcommand, args.slice(i + 1));
}
