/**
 * The keys a repository's own configuration (`.git/config`, `config.worktree`) may set for read-only
 * git commands to stay read-only. Decided from git-config(1): each key here only describes the
 * repository, labels, formats or tunes what git prints, or matters only to commands that are never
 * read-only (fetch, commit, merge). Keys that name a program, a filter, a driver, a hook location,
 * another configuration file or another work tree are absent, so they make git "not read-only".
 * Where the value decides, the rule says which values (`filter.lfs.*` as `git lfs install` writes it).
 */

type ValueRule = (value: string | undefined) => boolean;

const anyValue: ValueRule = () => true;
const exactly =
  (...allowed: string[]): ValueRule =>
  (value) =>
    value !== undefined && allowed.includes(value);

/** `section.key` (lower-case, as `git config --list` prints it) → the values allowed. */
const SIMPLE_KEYS: ReadonlyMap<string, ValueRule> = new Map(
  [
    // The repository's shape and how the work tree maps to it.
    'core.repositoryformatversion',
    'core.filemode',
    'core.bare',
    'core.logallrefupdates',
    'core.ignorecase',
    'core.precomposeunicode',
    'core.symlinks',
    'core.autocrlf',
    'core.eol',
    'core.safecrlf',
    'core.checkstat',
    'core.trustctime',
    'core.quotepath',
    'core.abbrev',
    'core.commentchar',
    'core.compression',
    'core.loosecompression',
    'core.bigfilethreshold',
    'core.preloadindex',
    'core.untrackedcache',
    'core.splitindex',
    'core.sparsecheckout',
    'core.sparsecheckoutcone',
    'core.multipackindex',
    'core.commitgraph',
    'core.whitespace',
    'core.protecthfs',
    'core.protectntfs',
    'core.warnambiguousrefs',
    'core.deltabasecachelimit',
    'core.packedgitwindowsize',
    'core.packedgitlimit',
    'core.fsync',
    'core.fsyncmethod',
    'core.fsyncobjectfiles',
    'core.hidedotfiles',
    'core.longpaths',
    'core.fscache',
    'extensions.worktreeconfig',
    'extensions.objectformat',
    'extensions.partialclone',
    'extensions.preciousobjects',
    'index.version',
    'index.threads',
    'index.skiphash',
    'index.recordendofindexentries',
    'index.recordoffsettable',
    'feature.manyfiles',
    // Who commits, and defaults of write commands (never read-only themselves).
    'init.defaultbranch',
    'pull.rebase',
    'pull.ff',
    'push.default',
    'push.autosetupremote',
    'fetch.prune',
    'fetch.prunetags',
    'fetch.writecommitgraph',
    'merge.conflictstyle',
    'rebase.autosquash',
    'rebase.autostash',
    'rebase.updaterefs',
    'rerere.enabled',
    'commit.gpgsign',
    'tag.gpgsign',
    'gpg.format',
    'gc.auto',
    'gc.autodetach',
    // How read-only commands print. None of these names a program; `log.showsignature` runs the
    // signature program, which only trusted (user or system) configuration can name.
    'diff.renames',
    'diff.renamelimit',
    'diff.algorithm',
    'diff.mnemonicprefix',
    'diff.noprefix',
    'diff.relative',
    'diff.context',
    'diff.interhunkcontext',
    'diff.statgraphwidth',
    'diff.suppressblankempty',
    'diff.wserrorhighlight',
    'diff.colormoved',
    'diff.colormovedws',
    'diff.indentheuristic',
    'diff.submodule',
    'diff.ignoresubmodules',
    'log.date',
    'log.decorate',
    'log.abbrevcommit',
    'log.follow',
    'log.mailmap',
    'log.showroot',
    'log.showsignature',
    'log.excludedecoration',
    'status.showuntrackedfiles',
    'status.relativepaths',
    'status.short',
    'status.branch',
    'status.aheadbehind',
    'status.renames',
    'status.renamelimit',
    'status.showstash',
    'status.submodulesummary',
    'blame.ignorerevsfile',
    'blame.markignoredlines',
    'blame.markunblamablelines',
    'blame.date',
    'grep.linenumber',
    'grep.patterntype',
    'grep.extendedregexp',
    'grep.column',
    'grep.fullname',
    'lfs.repositoryformatversion',
  ].map((key) => [key, anyValue] as const),
);

/** What `git lfs install --local` writes; any other filter program is not known. */
const LFS_FILTER: ReadonlyMap<string, ValueRule> = new Map([
  ['clean', exactly('git-lfs clean -- %f')],
  ['smudge', exactly('git-lfs smudge -- %f')],
  ['process', exactly('git-lfs filter-process')],
  ['required', exactly('true')],
]);

/** `section.<subsection>.key` families: the subsection (a remote, branch or submodule) is a name. */
const SUBSECTION_KEYS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  [
    'remote',
    new Set([
      'url',
      'pushurl',
      'fetch',
      'push',
      'tagopt',
      'prune',
      'prunetags',
      'mirror',
      'skipdefaultupdate',
      'skipfetchall',
      'promisor',
      'partialclonefilter',
    ]),
  ],
  ['branch', new Set(['remote', 'pushremote', 'merge', 'rebase', 'description'])],
  ['submodule', new Set(['url', 'active', 'branch', 'ignore', 'shallow'])],
]);

/** Sections whose every key only labels or colours: `user.*`, `author.*`, `color.*`. */
const FREE_SECTIONS: ReadonlySet<string> = new Set(['user', 'author', 'committer', 'color']);

/** The key `core.hookspath` is judged by the hooks it points at, not here. */
export const HOOKS_PATH_KEY = 'core.hookspath';

/** True when a repository-level key with this value is known to be harmless for read-only git. */
export function isHarmlessRepositoryKey(key: string, value: string | undefined): boolean {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first < 0) return false;
  const section = key.slice(0, first);
  const name = key.slice(last + 1);
  if (FREE_SECTIONS.has(section)) return true;
  if (first === last) return SIMPLE_KEYS.get(key)?.(value) === true;
  const subsection = key.slice(first + 1, last);
  if (section === 'filter' && subsection === 'lfs') return LFS_FILTER.get(name)?.(value) === true;
  if (section === 'lfs') return name === 'access' || name === 'locksverify';
  return SUBSECTION_KEYS.get(section)?.has(name) === true;
}
