/**
 * The git commands that list or change, told apart by their options and operands: `branch`,
 * `tag`, `config`, `remote`, `stash`, `reflog`, `worktree` (git 2.39 `-h` output and manuals).
 * Only the listing forms are read-only. Also the shared runner that reads one subcommand's
 * arguments against its table.
 */
import { applyOptions, applyTableOperands, type CommandEffects, noEffects, refuse } from './command-effects';
import { GIT_DIFF_OPTIONS, GIT_LOG_OPTIONS, GIT_REV_OPTIONS, gitTable, without } from './git-options';
import { isUnknownWord, type ParsedArgs, parseArgs } from './option-parse';
import {
  changes,
  compileTable,
  DATA,
  FLAG,
  mode,
  OPTIONAL,
  type OptionTable,
  READ,
  run,
  type TableSource,
  VALUE,
} from './option-table';
import type { ShellWord } from './types';
import { literalWord } from './words';

// Process-wide on purpose: compiled once from the constant tables above, never changed after.
const compiled = new Map<TableSource, OptionTable>();
const compiledTable = (source: TableSource): OptionTable => {
  let table = compiled.get(source);
  if (!table) {
    table = compileTable(source);
    compiled.set(source, table);
  }
  return table;
};

/** `REV:PATH` and `:PATH` name a file of the repository: count it as a read of PATH. */
function revisionPath(word: ShellWord): ShellWord | undefined {
  if (isUnknownWord(word)) return undefined;
  const match = /^[^:]*:(?:[0-3]:)?(.+)$/.exec(word.value);
  // `:/text` searches commit messages; it names no file.
  if (!match || word.value.startsWith(':/')) return undefined;
  return literalWord(match[1] as string);
}

/** Reads `args` against one subcommand's table. */
export function runGitTable(
  sub: string,
  source: TableSource,
  args: readonly ShellWord[],
): { effects: CommandEffects; parsed: ParsedArgs } {
  const table = compiledTable(source);
  const cmd = `git ${sub}`;
  const effects = noEffects();
  const parsed = parseArgs(table, args);
  applyOptions(cmd, table, parsed, effects);
  applyTableOperands(cmd, table, parsed, effects);
  for (const operand of parsed.operands) {
    const path = revisionPath(operand.word);
    if (path) effects.reads.push({ word: path, recursive: false });
  }
  for (const option of parsed.options) {
    const value = option.value;
    if (!value) continue;
    // `-L START,END:FILE` reads FILE's history.
    if (option.name === '-L' && !isUnknownWord(value) && value.value.includes(':'))
      effects.reads.push({
        word: literalWord(value.value.slice(value.value.lastIndexOf(':') + 1)),
        recursive: false,
      });
    // `%G?`, `%GS`, … and (ref formats of newer git) `%(signature…)` verify signatures: that runs gpg.
    if (
      (option.name === '--pretty' || option.name === '--format') &&
      (isUnknownWord(value) || /%G|%\(signature/.test(value.value))
    )
      refuse(
        effects,
        `${cmd} ${option.spelling}: a signature placeholder verifies signatures, which runs gpg`,
      );
  }
  return { effects, parsed };
}

const refused = (reason: string): CommandEffects => ({ ...noEffects(), notReadOnly: reason });

const CHANGES_BRANCH = changes('creates, renames, deletes or configures branches', 'none');
const BRANCH = gitTable(
  'branch',
  {
    'v verbose': FLAG,
    'q quiet': FLAG,
    't track': { ...CHANGES_BRANCH, arity: 'optional' },
    'no-track': CHANGES_BRANCH,
    'u set-upstream-to': { ...CHANGES_BRANCH, arity: 'required' },
    'unset-upstream': CHANGES_BRANCH,
    color: OPTIONAL,
    'no-color': FLAG,
    'r remotes': FLAG,
    'contains no-contains merged no-merged points-at sort': VALUE,
    format: VALUE,
    abbrev: OPTIONAL,
    'no-abbrev': FLAG,
    'a all': FLAG,
    'd delete': CHANGES_BRANCH,
    D: CHANGES_BRANCH,
    'm move': CHANGES_BRANCH,
    M: CHANGES_BRANCH,
    'c copy': CHANGES_BRANCH,
    C: CHANGES_BRANCH,
    'l list': mode('list'),
    'show-current': FLAG,
    'create-reflog': CHANGES_BRANCH,
    'edit-description': run('opens the branch description in an editor', 'none'),
    'f force': CHANGES_BRANCH,
    column: OPTIONAL,
    'no-column': FLAG,
    'i ignore-case': FLAG,
    'recurse-submodules': CHANGES_BRANCH,
    'omit-empty': FLAG,
  },
  (modes) => (modes.has('list') ? DATA : { leading: [], rest: 'changes', why: 'creates a branch' }),
);

const CHANGES_TAG = changes('creates or deletes tags', 'none');
const TAG = gitTable(
  'tag',
  {
    'l list': mode('list'),
    n: { ...OPTIONAL, mode: 'list' },
    'd delete': CHANGES_TAG,
    'v verify': run('runs gpg to verify tags', 'none'),
    'a annotate': CHANGES_TAG,
    'm message': { ...CHANGES_TAG, arity: 'required' },
    'F file': { ...CHANGES_TAG, arity: 'required' },
    'e edit': run('opens the tag message in an editor', 'none'),
    's sign': run('runs gpg to sign the tag', 'none'),
    cleanup: { ...CHANGES_TAG, arity: 'required' },
    'u local-user': run('runs gpg to sign the tag', 'required'),
    'f force': CHANGES_TAG,
    'create-reflog': CHANGES_TAG,
    column: OPTIONAL,
    'no-column': FLAG,
    'contains no-contains merged no-merged sort points-at': VALUE,
    format: VALUE,
    color: OPTIONAL,
    'i ignore-case omit-empty': FLAG,
  },
  (modes) => (modes.has('list') ? DATA : { leading: [], rest: 'changes', why: 'creates a tag' }),
);

const CHANGES_CONFIG = changes('changes the configuration', 'none');
const CONFIG = gitTable(
  'config',
  {
    'global system local worktree': FLAG,
    'f file': READ,
    blob: VALUE,
    'get get-all get-regexp get-urlmatch get-color get-colorbool': mode('get'),
    'l list': mode('get'),
    'replace-all add unset unset-all rename-section remove-section': CHANGES_CONFIG,
    'fixed-value': FLAG,
    'e edit': run('opens the configuration in an editor', 'none'),
    't type': VALUE,
    'bool int bool-or-int bool-or-str path expiry-date': FLAG,
    'z null': FLAG,
    'name-only includes no-includes show-origin show-scope': FLAG,
    default: VALUE,
  },
  DATA,
);

function configEffects(args: readonly ShellWord[]): CommandEffects {
  const { effects, parsed } = runGitTable('config', CONFIG, args);
  if (parsed.modes.has('get')) return effects;
  const names = parsed.operands.map((o) => (isUnknownWord(o.word) ? undefined : o.word.value));
  const [first] = names;
  // `git config NAME` reads; `NAME VALUE` sets. Newer git spells the reads `list` and `get NAME`.
  const reads =
    !parsed.operands.some((o) => o.mayBeMany) &&
    (names.length === 1 ||
      (first === 'get' && names.length === 2) ||
      (first === 'list' && names.length === 1));
  if (!reads) refuse(effects, 'git config NAME VALUE changes the configuration');
  // A change goes to the file `--file` names (its only read path): `git config --file x a.b c`
  // appended `[a] b = c` to ./x (calibrated with git 2.39), so it is written, not only read.
  if (effects.notReadOnly !== undefined) effects.writes.push(...effects.reads);
  return effects;
}

const LOG_FAMILY = { ...GIT_REV_OPTIONS, ...GIT_DIFF_OPTIONS, ...GIT_LOG_OPTIONS };
const STASH_LIST = gitTable('stash list', LOG_FAMILY, DATA, { numeric: true });
// `stash show -u` means --include-untracked, not the patch.
const STASH_SHOW = gitTable(
  'stash show',
  { ...without(GIT_DIFF_OPTIONS, ['u']), 'u include-untracked only-untracked no-include-untracked': FLAG },
  DATA,
);
const REFLOG_SHOW = gitTable('reflog', LOG_FAMILY, DATA, { numeric: true });
const WORKTREE_LIST = gitTable('worktree list', { 'v verbose porcelain z': FLAG, expire: VALUE }, DATA);
const REMOTE_GET_URL = gitTable('remote get-url', { 'push all': FLAG }, DATA);
const REMOTE_SHOW = gitTable('remote show', { n: mode('offline') }, DATA);

const first = (args: readonly ShellWord[]) => {
  const word = args[0];
  return word && !isUnknownWord(word) ? word.value : undefined;
};

function remoteEffects(args: readonly ShellWord[]): CommandEffects {
  let i = 0;
  while (args[i]?.value === '-v' || args[i]?.value === '--verbose') i++;
  const rest = args.slice(i);
  const sub = first(rest);
  if (rest.length === 0) return noEffects();
  if (sub === 'get-url') return runGitTable('remote get-url', REMOTE_GET_URL, rest.slice(1)).effects;
  if (sub === 'show') {
    const { effects, parsed } = runGitTable('remote show', REMOTE_SHOW, rest.slice(1));
    if (!parsed.modes.has('offline'))
      refuse(effects, 'git remote show contacts the remote (add -n to stay offline)');
    return effects;
  }
  return refused(`git remote ${rest[0]?.text ?? ''} changes the remotes`);
}

/** Every table of this file, for the table tests. */
export const GIT_LIST_MODE_TABLES: readonly TableSource[] = [
  BRANCH,
  TAG,
  CONFIG,
  STASH_LIST,
  STASH_SHOW,
  REFLOG_SHOW,
  WORKTREE_LIST,
  REMOTE_GET_URL,
  REMOTE_SHOW,
];

/** The list forms, by subcommand; undefined for every other subcommand. */
export const GIT_LIST_MODES: Readonly<Record<string, (args: readonly ShellWord[]) => CommandEffects>> = {
  branch: (args) => runGitTable('branch', BRANCH, args).effects,
  tag: (args) => runGitTable('tag', TAG, args).effects,
  config: configEffects,
  remote: remoteEffects,
  stash: (args) => {
    const sub = first(args);
    if (sub === 'list') return runGitTable('stash list', STASH_LIST, args.slice(1)).effects;
    if (sub === 'show') return runGitTable('stash show', STASH_SHOW, args.slice(1)).effects;
    return refused(`git stash ${args[0]?.text ?? ''} changes the stash or the work tree`.trimEnd());
  },
  reflog: (args) => {
    const sub = first(args);
    if (args[0] && sub === undefined)
      return refused(`git reflog: ${args[0].text} is only known when it runs`);
    if (sub === 'expire' || sub === 'delete') return refused(`git reflog ${sub} removes reflog entries`);
    if (sub === 'exists') return noEffects();
    return runGitTable('reflog', REFLOG_SHOW, sub === 'show' ? args.slice(1) : args).effects;
  },
  worktree: (args) => {
    if (first(args) === 'list') return runGitTable('worktree list', WORKTREE_LIST, args.slice(1)).effects;
    return refused(`git worktree ${args[0]?.text ?? ''} changes the worktrees`.trimEnd());
  },
};
