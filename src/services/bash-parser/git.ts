/**
 * Which `git` invocations only read the project's repository (git 2.39). The global options come
 * first (git(1), git.c's handle_options: exact names only): the harmless ones change no program
 * or repository; everything else — `-C`, `-c`, `--git-dir`, `--work-tree`, `--exec-path`,
 * `--config-env`, `-p`, `--help`, anything unknown — runs git on another repository or with
 * settings that can run programs, so the line is not read-only. Then the subcommand, read
 * against its full option table (`git-subcommands.ts`, `git-list-modes.ts`).
 *
 * Whether the repository's own configuration (`.git/config`: core.fsmonitor, core.pager, diff
 * drivers, …) makes a read-only command run code is a separate check on the repository; it hooks
 * in at `gitEffects`, which has the subcommand at hand.
 */
import { posix } from 'node:path';
import { type CommandEffects, noEffects, type PathUse, unknownWord } from './command-effects';
import { GIT_LIST_MODES, runGitTable } from './git-list-modes';
import { GIT_SUBCOMMANDS } from './git-subcommands';
import { isUnknownWord } from './option-parse';
import { GIT_PROGRAM_OPTIONS, programRunReason } from './program-options';
import type { ShellWord } from './types';

/** Global options that change nothing about what runs or which repository is read. */
const HARMLESS_GLOBALS: ReadonlySet<string> = new Set([
  '--no-pager',
  '-P',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-replace-objects',
  '--html-path',
  '--man-path',
  '--info-path',
]);

/** Why a global option spoils the read-only proof, for the refusal line. */
function globalOptionReason(option: string): string {
  const name = option.split('=')[0] as string;
  switch (name) {
    case '-C':
    case '--git-dir':
    case '--work-tree':
    case '--bare':
    case '--namespace':
    case '--super-prefix':
      return `git ${name} runs git on another repository or work tree, whose configuration can run programs`;
    case '-c':
    case '--config-env':
      return `git ${name} sets configuration, which can run programs`;
    case '--exec-path':
      return 'git --exec-path changes where git finds the programs it runs';
    case '-p':
    case '--paginate':
      return `git ${name} pipes the output through a pager program`;
    case '-h':
    case '--help':
      return `git ${name} opens the manual in a viewer the configuration picks`;
    default:
      return `git ${option} is not a global option this table knows`;
  }
}

/** The subcommand and its arguments after the global options, or why there is none to check. */
/** Global options whose value can name a program git runs: configuration, or where git finds its programs. */
const RUNS_PROGRAMS = /^(-c|--config-env|--exec-path)(=|$)|^-c./;

export function splitGitArgs(
  args: readonly ShellWord[],
): { sub: string; rest: ShellWord[] } | { refused: string; runs?: true } | { version: true } {
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i] as ShellWord;
    if (isUnknownWord(word)) return { refused: `git: ${word.text} is only known when it runs` };
    const value = word.value;
    if (!value.startsWith('-')) break;
    if (value === '--version' || value === '-v') return { version: true };
    if (!HARMLESS_GLOBALS.has(value))
      // `git -c core.pager=sh log`: a rule for git cannot vouch for the program a setting names.
      return RUNS_PROGRAMS.test(value)
        ? { refused: globalOptionReason(value), runs: true }
        : { refused: globalOptionReason(value) };
  }
  const sub = args[i];
  if (!sub) return { refused: 'git without a subcommand' };
  return {
    sub: sub.value,
    rest: args.slice(i + 1).map((w) => (w.value === '--end-of-options' ? { ...w, value: '--' } : w)),
  };
}

/**
 * Options that make a log-like command print patches or search file contents: short clusters
 * holding p, u, U, W, c, m, S or G (`-p`, `-pW`, `-U3`, `-Sneedle`), and the long ones. Read
 * broadly: a false match only asks where a Read deny rule covers a tracked file.
 */
const PATCH_OPTION =
  /^(-[A-Za-z0-9]*[puUWcmSG]|--(patch|unified|function-context|word-diff|color-words|cc|remerge-diff|full-diff|ext-diff|textconv)\b)/;
/** Output formats of diff and show that print names and counts, not contents. */
const NAMES_ONLY =
  /^(-s|--(stat|numstat|shortstat|name-only|name-status|summary|dirstat|compact-summary|no-patch|raw|quiet)\b)/;

/** Subcommands that print file contents unless a names-only format is chosen (grep always). */
const ALWAYS_CONTENT: ReadonlySet<string> = new Set(['diff', 'show', 'grep']);
/** Log-like subcommands that print contents with a patch option. */
const LOG_LIKE: ReadonlySet<string> = new Set(['log', 'whatchanged', 'reflog', 'stash']);
/**
 * Subcommands that copy tracked content out whole — an archive, a bundle, patches, a fast-import
 * stream (calibrated: `git archive HEAD`, `git bundle create b HEAD`, `git format-patch --root`
 * and `git fast-export HEAD` each carried a committed `.env`'s secret) — whatever they are given.
 */
const COPIES_CONTENT: ReadonlySet<string> = new Set(['archive', 'bundle', 'format-patch', 'fast-export']);
/** `git cat-file` forms that print only an object's type, size or existence. */
const CAT_FILE_META = /^-[tse]$/;

/**
 * Whether `git SUB ARGS` prints the content of files its arguments do not name. Pathspecs after
 * `--` limit it to themselves (they are read paths already); a revision or an object name does
 * not (`git show HEAD`, `git cat-file -p 1a2b…` may print any tracked file).
 */
function showsRepositoryContent(sub: string, rest: readonly ShellWord[]): boolean {
  // An archive's pathspecs are read from the tree-ish, not the work tree a folder walk would see.
  if (COPIES_CONTENT.has(sub)) return true;
  const dashes = rest.findIndex((w) => w.value === '--');
  if (dashes >= 0 && dashes < rest.length - 1) return false;
  const values = rest.map((w) => w.value);
  if (sub === 'grep') return true;
  if (ALWAYS_CONTENT.has(sub))
    return !values.some((v) => NAMES_ONLY.test(v)) || values.some((v) => PATCH_OPTION.test(v));
  if (sub === 'cat-file') return !values.some((v) => CAT_FILE_META.test(v));
  if (LOG_LIKE.has(sub)) return values.some((v) => PATCH_OPTION.test(v));
  return false;
}

/** git's global options that take their value as the next word (git.c, handle_options). */
const GLOBAL_WITH_VALUE: ReadonlySet<string> = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--config-env',
  '--super-prefix',
  '--attr-source',
]);

/** Where git's subcommand is in its arguments (after `git`): past the global options and their values. */
export function gitSubcommandIndex(args: readonly string[]): number {
  let i = 0;
  while (i < args.length && (args[i] as string).startsWith('-'))
    i += GLOBAL_WITH_VALUE.has(args[i] as string) ? 2 : 1;
  return i;
}

/**
 * Why the subcommand of `git ARGS` runs a program its own options or operands name (`diff
 * --textconv`, `grep -O`, `rebase --exec`), whatever global options come before it (`-c`, `-C`,
 * `--git-dir`): from its option table's `run` effects, or from GIT_PROGRAM_OPTIONS.
 */
export function gitSubcommandRuns(args: readonly ShellWord[]): string | undefined {
  const values = args.map((w) => w.value);
  const at = gitSubcommandIndex(values);
  const unknown = args.slice(0, at + 1).find(isUnknownWord);
  if (unknown)
    return `git: ${unknown.text} is only known when it runs, and may pick a subcommand or option that runs a program`;
  const sub = values[at];
  if (sub === undefined) return undefined;
  const tabled = tabledEffects(sub, args.slice(at + 1));
  if (tabled) return tabled.runs;
  const spec = GIT_PROGRAM_OPTIONS[sub];
  return spec && programRunReason(`git ${sub}`, spec, values.slice(at + 1));
}

/** What a subcommand with an option table or list modes does; undefined for any other. */
function tabledEffects(sub: string, rest: readonly ShellWord[]): CommandEffects | undefined {
  const table = GIT_SUBCOMMANDS[sub];
  if (table) return runGitTable(sub, table, rest).effects;
  return GIT_LIST_MODES[sub]?.(rest);
}

/**
 * Where the subcommand's relative paths lead after git's global options: '' (where they are
 * written), the folder `-C` moves git to (`git -C d config --file x a.b c` writes d/x; each `-C`
 * is relative to the one before), or null when only the run knows (a `-C` of a variable, or
 * `--work-tree`, which moves pathspecs but not `--file`).
 */
function globalBase(args: readonly ShellWord[], at: number): string | null {
  let base = '';
  for (let i = 0; i < at; i++) {
    const value = (args[i] as ShellWord).value;
    if (value === '-C') {
      const dir = args[i + 1];
      if (!dir || isUnknownWord(dir) || dir.tilde) return null;
      base = posix.isAbsolute(dir.value) ? dir.value : posix.join(base, dir.value);
      i++;
    } else if (value === '--work-tree' || value.startsWith('--work-tree=')) return null;
    else if (GLOBAL_WITH_VALUE.has(value)) i++;
  }
  return base;
}

/**
 * The paths the subcommand reads and writes, where they really are, when global options refused
 * its read-only proof: a deny rule must still see them (`git -C . config --file=x a.b c` wrote ./x
 * past Edit(./x) in bypassPermissions; calibrated with git 2.39).
 */
function pathsAfterGlobals(args: readonly ShellWord[]): Pick<CommandEffects, 'reads' | 'writes'> {
  const at = gitSubcommandIndex(args.map((w) => w.value));
  if (args.slice(0, at + 1).some(isUnknownWord)) return noEffects();
  const sub = (args[at] as ShellWord | undefined)?.value;
  const effects = sub === undefined ? undefined : tabledEffects(sub, args.slice(at + 1));
  if (!effects) return noEffects();
  const base = globalBase(args, at);
  const moved = (use: PathUse): PathUse => {
    const { word } = use;
    if (base === '' || isUnknownWord(word) || posix.isAbsolute(word.value)) return use;
    if (base === null) return { ...use, word: unknownWord(`${word.text} (after git's global options)`) };
    const path = posix.join(base, word.value);
    return { ...use, word: { ...word, text: path, value: path } };
  };
  return { reads: effects.reads.map(moved), writes: effects.writes.map(moved) };
}

/** What `git ARGS` does. */
export function gitEffects(args: readonly ShellWord[]): CommandEffects {
  const split = splitGitArgs(args);
  if ('version' in split) return noEffects();
  if ('refused' in split) {
    // The subcommand's own program still runs after `-c`/`-C` (`git -c color.ui=never diff --textconv`).
    const runs = gitSubcommandRuns(args) ?? (split.runs ? split.refused : undefined);
    return { ...pathsAfterGlobals(args), notReadOnly: split.refused, ...(runs ? { runs } : {}) };
  }
  const { sub, rest } = split;
  const effects = tabledEffects(sub, rest);
  if (!effects) {
    const runs = gitSubcommandRuns(args);
    return {
      ...noEffects(),
      notReadOnly: `git ${sub} is not a read-only git command`,
      ...(runs ? { runs } : {}),
      ...(COPIES_CONTENT.has(sub) ? { showsRepositoryContent: true as const } : {}),
    };
  }
  if (showsRepositoryContent(sub, rest)) effects.showsRepositoryContent = true;
  return effects;
}

/** True when `git ARGS` only reads the repository. */
export function isReadOnlyGit(args: readonly ShellWord[]): boolean {
  const effects = gitEffects(args);
  return !effects.notReadOnly && effects.writes.length === 0;
}

/** Subcommands read-only in every form their table allows. */
export const GIT_READ_ONLY_SUBCOMMANDS: ReadonlySet<string> = new Set(Object.keys(GIT_SUBCOMMANDS));
