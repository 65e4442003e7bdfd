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
import { type CommandEffects, noEffects } from './command-effects';
import { GIT_LIST_MODES, runGitTable } from './git-list-modes';
import { GIT_SUBCOMMANDS } from './git-subcommands';
import { isUnknownWord } from './option-parse';
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
export function splitGitArgs(
  args: readonly ShellWord[],
): { sub: string; rest: ShellWord[] } | { refused: string } | { version: true } {
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i] as ShellWord;
    if (isUnknownWord(word)) return { refused: `git: ${word.text} is only known when it runs` };
    const value = word.value;
    if (!value.startsWith('-')) break;
    if (value === '--version' || value === '-v') return { version: true };
    if (!HARMLESS_GLOBALS.has(value)) return { refused: globalOptionReason(value) };
  }
  const sub = args[i];
  if (!sub) return { refused: 'git without a subcommand' };
  return {
    sub: sub.value,
    rest: args.slice(i + 1).map((w) => (w.value === '--end-of-options' ? { ...w, value: '--' } : w)),
  };
}

/** What `git ARGS` does. */
export function gitEffects(args: readonly ShellWord[]): CommandEffects {
  const split = splitGitArgs(args);
  if ('version' in split) return noEffects();
  if ('refused' in split) return { ...noEffects(), notReadOnly: split.refused };
  const { sub, rest } = split;
  const table = GIT_SUBCOMMANDS[sub];
  if (table) return runGitTable(sub, table, rest).effects;
  const listMode = GIT_LIST_MODES[sub];
  if (listMode) return listMode(rest);
  return { ...noEffects(), notReadOnly: `git ${sub} is not a read-only git command` };
}

/** True when `git ARGS` only reads the repository. */
export function isReadOnlyGit(args: readonly ShellWord[]): boolean {
  const effects = gitEffects(args);
  return !effects.notReadOnly && effects.writes.length === 0;
}

/** Subcommands read-only in every form their table allows. */
export const GIT_READ_ONLY_SUBCOMMANDS: ReadonlySet<string> = new Set(Object.keys(GIT_SUBCOMMANDS));
