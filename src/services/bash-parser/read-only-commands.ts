/**
 * The classification tables behind `isReadOnlyCommand` (seed 000 §3.5.1). They are exported so the
 * permission layer and the Bash tool agree on what "only searches, reads or lists" means.
 */
import { isReadOnlyGit } from './git';
import { isReadOnlySed } from './sed';
import type { ShellWord } from './types';

export const BASH_SEARCH_COMMANDS: ReadonlySet<string> = new Set([
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'ack',
  'find',
  'fd',
  'fdfind',
  'locate',
]);

export const BASH_READ_COMMANDS: ReadonlySet<string> = new Set([
  'cat',
  'head',
  'tail',
  'wc',
  'jq',
  'sort',
  'uniq',
  'cut',
  'tr',
  'diff',
  'cmp',
  'comm',
  'nl',
  'od',
  'xxd',
  'hexdump',
  'strings',
  'column',
  'fold',
  'fmt',
  'paste',
  'rev',
  'tac',
  'expand',
  'unexpand',
  'base64',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'sha512sum',
  'shasum',
  'cksum',
  'sed',
  'file',
  'stat',
  'readlink',
  'realpath',
  'basename',
  'dirname',
  'git',
]);

export const BASH_LIST_COMMANDS: ReadonlySet<string> = new Set([
  'ls',
  'tree',
  'du',
  'df',
  'pwd',
  'which',
  'whereis',
  'type',
  'id',
  'whoami',
  'uname',
  'hostname',
  'date',
  'printenv',
  'nproc',
  'uptime',
  'groups',
  'locale',
  'tty',
  'arch',
  'cd',
]);

/** Commands that neither read nor write anything of note; they never spoil a read-only verdict. */
export const BASH_SEMANTIC_NEUTRAL_COMMANDS: ReadonlySet<string> = new Set([
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'test',
  '[',
  'sleep',
  'seq',
]);

/**
 * Commands that run another command: read-only exactly when what they run is. Their option
 * grammar lives in `wrappers.ts`. (`nohup` is absent: it may create nohup.out.)
 */
export const BASH_WRAPPER_COMMANDS: ReadonlySet<string> = new Set([
  'env',
  'nice',
  'time',
  'timeout',
  'stdbuf',
  'builtin',
  'exec',
  'command',
  'xargs',
  'eval',
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
]);

type ArgCheck = (args: readonly string[]) => boolean;

const hasAny = (args: readonly string[], banned: readonly string[]) =>
  args.some((arg) => banned.some((b) => arg === b || (b.startsWith('--') && arg.startsWith(`${b}=`))));

/** Short-option clusters (`-uo`) that contain one of `letters`. */
const hasShortLetter = (args: readonly string[], letters: string) =>
  args.some((arg) => /^-[^-]/.test(arg) && [...arg.slice(1)].some((ch) => letters.includes(ch)));

/** Positionals, skipping the value of each option in `withValue`. */
function positionals(args: readonly string[], withValue: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (withValue.includes(arg)) i++;
    else if (!arg.startsWith('-') || arg === '-') out.push(arg);
  }
  return out;
}

/**
 * Argument checks for listed commands with options that write, delete or execute. A command
 * with a check is read-only only when all its arguments are static and the check passes.
 */
export const READ_ONLY_ARG_CHECKS: Readonly<Record<string, ArgCheck>> = {
  find: (args) =>
    !hasAny(args, [
      '-exec',
      '-execdir',
      '-ok',
      '-okdir',
      '-delete',
      '-fprint',
      '-fprint0',
      '-fprintf',
      '-fls',
    ]),
  rg: (args) => !hasAny(args, ['--pre']),
  fd: (args) => !hasAny(args, ['-x', '--exec', '-X', '--exec-batch']),
  fdfind: (args) => !hasAny(args, ['-x', '--exec', '-X', '--exec-batch']),
  ag: (args) => !hasAny(args, ['--pager']),
  ack: (args) => !hasAny(args, ['--pager']),
  sort: (args) => !hasAny(args, ['--output', '--compress-program']) && !hasShortLetter(args, 'o'),
  // `uniq in out` writes `out`.
  uniq: (args) => positionals(args, ['-f', '-s', '-w']).length <= 1,
  // `xxd in out` writes `out`.
  xxd: (args) =>
    positionals(args, ['-c', '-g', '-l', '-o', '-s', '-n', '-cols', '-len', '-seek']).length <= 1,
  base64: (args) => !hasAny(args, ['-o', '--output']),
  tree: (args) => !hasAny(args, ['-o', '-R']),
  file: (args) => !hasShortLetter(args, 'C') && !hasAny(args, ['--compile']),
  sed: isReadOnlySed,
  git: isReadOnlyGit,
  // `date -s …` and `date MMDDhhmm` set the clock; `+FORMAT` only prints.
  date: (args) =>
    !hasAny(args, ['-s', '--set']) &&
    positionals(args, ['-d', '-r', '-f', '--date', '--reference', '--file']).every((a) => a.startsWith('+')),
  // `hostname NAME` renames the machine.
  hostname: (args) => args.every((a) => a.startsWith('-')) && !hasAny(args, ['-F', '--file', '-b', '--boot']),
};

export type ReadOnlyCategory = 'search' | 'read' | 'list' | 'neutral';

export function readOnlyCategory(name: string): ReadOnlyCategory | undefined {
  if (BASH_SEARCH_COMMANDS.has(name)) return 'search';
  if (BASH_READ_COMMANDS.has(name)) return 'read';
  if (BASH_LIST_COMMANDS.has(name)) return 'list';
  if (BASH_SEMANTIC_NEUTRAL_COMMANDS.has(name)) return 'neutral';
  return undefined;
}

/** True when a listed (non-wrapper) command with these arguments only searches, reads or lists. */
export function isReadOnlyInvocation(name: string, args: readonly ShellWord[]): boolean {
  if (!readOnlyCategory(name)) return false;
  const check = READ_ONLY_ARG_CHECKS[name];
  if (!check) return true;
  // A dynamic word could expand to any option (`find . $x` with x=-delete).
  if (args.some((arg) => arg.dynamic || arg.glob)) return false;
  return check(args.map((arg) => arg.value));
}
