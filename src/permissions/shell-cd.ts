/**
 * The shell's folder as a value, and what one command does to it: `cd DIR` and `pushd DIR` move
 * it (logically, as bash does by default: `cd link/..` is the folder holding `link`), a failed
 * `cd` leaves it, and anything that may move it in ways we cannot follow (`cd -`, `cd "$X"`, a
 * bare `cd`, `popd`, `eval`, `source`, a dynamic command name) makes it unknown.
 */
import { resolve } from 'node:path';
import type { ShellSegment, ShellWord } from '../services/bash-parser';
import type { RealPaths } from './real-paths';

/** Every folder a command could run in (logical paths, as `pwd` shows them), or unknown. */
export type ShellCwd = { dirs: readonly string[] } | { unknown: string };

export const MAX_CWD_CHOICES = 16;

export const knownCwd = (dir: string): ShellCwd => ({ dirs: [dir] });

export function unionCwd(a: ShellCwd, b: ShellCwd): ShellCwd {
  if ('unknown' in a) return a;
  if ('unknown' in b) return b;
  if (b.dirs.every((d) => a.dirs.includes(d))) return a;
  const dirs = [...new Set([...a.dirs, ...b.dirs])];
  return dirs.length > MAX_CWD_CHOICES ? { unknown: 'the command may run in too many folders' } : { dirs };
}

export const sameCwd = (a: ShellCwd, b: ShellCwd) =>
  'unknown' in a || 'unknown' in b
    ? 'unknown' in a && 'unknown' in b
    : a.dirs.length === b.dirs.length && a.dirs.every((d) => b.dirs.includes(d));

/** Where the shell is after a command: when it succeeded, and when it failed. */
export type Flow = { ok: ShellCwd; fail: ShellCwd };
export const stays = (cwd: ShellCwd): Flow => ({ ok: cwd, fail: cwd });

/** Commands that may move the shell itself (or run code that may). */
const CWD_COMMANDS = new Set(['cd', 'pushd', 'popd', 'eval', 'source', '.', 'trap', 'alias', 'shopt']);
/** Wrappers that run a builtin in the current shell (`builtin cd /etc` moves it). */
const IN_SHELL_WRAPPERS = new Set(['builtin', 'command', 'time']);

export type CwdContext = {
  home: string | undefined;
  /** The line mentions CDPATH: a relative `cd` may land anywhere. */
  cdpathMentioned: boolean;
  /** The line runs `set` (`set -P` makes every `cd` physical): a `cd` may land on either path. */
  physicalMaybe: boolean;
  paths: RealPaths;
};

/** The command a segment runs in the current shell, past `builtin`/`command`/`time`. */
export function inShellCommand(argv: readonly ShellWord[]): { name: string | undefined; args: ShellWord[] } {
  let i = 0;
  while (i < argv.length) {
    const word = argv[i] as ShellWord;
    if (word.dynamic || word.glob) return { name: undefined, args: [] };
    if (!IN_SHELL_WRAPPERS.has(word.value)) return { name: word.value, args: argv.slice(i + 1) };
    i++;
    while (i < argv.length && /^-[pvV]*$/.test((argv[i] as ShellWord).value)) {
      // `command -v cd` only looks the name up.
      if (/[vV]/.test((argv[i] as ShellWord).value)) return { name: 'command', args: [] };
      i++;
    }
  }
  return { name: undefined, args: [] };
}

/** Whether a segment may change the folder, so the line needs the full walk. */
export function mayMoveShell(segment: ShellSegment): boolean {
  if (segment.kind !== 'command') return false;
  const first = segment.argv[0];
  if (!first || first.dynamic || first.glob) return true;
  return CWD_COMMANDS.has(first.value) || IN_SHELL_WRAPPERS.has(first.value);
}

/**
 * Where `segment` (a simple command) leaves the shell, started in `start`; undefined when it does
 * not move it. `movingFunctions` are the functions of the line whose bodies may move it.
 */
export function commandMove(
  segment: ShellSegment,
  start: ShellCwd,
  context: CwdContext,
  movingFunctions: ReadonlySet<string>,
): Flow | undefined {
  const first = segment.argv[0];
  if (!first || first.dynamic || first.glob) {
    return stays({ unknown: `the command name ${first?.text ?? ''} is only known when it runs` });
  }
  const { name, args } = inShellCommand(segment.argv);
  if (name === undefined) return stays({ unknown: `${segment.text} may change the folder` });
  if (movingFunctions.has(name))
    return stays({ unknown: `${name} is a function that may change the folder` });
  if (name === 'cd' || name === 'pushd') return cd(args, start, name, context);
  if (name === 'popd')
    return args.some((a) => a.value === '-n') ? stays(start) : stays({ unknown: 'after popd' });
  return CWD_COMMANDS.has(name) ? stays({ unknown: `after ${name}` }) : undefined;
}

function cd(args: readonly ShellWord[], start: ShellCwd, name: 'cd' | 'pushd', context: CwdContext): Flow {
  let physical = false;
  const operands: ShellWord[] = [];
  let options = true;
  for (const word of args) {
    if (options && word.value === '--' && !word.dynamic) {
      options = false;
      continue;
    }
    if (options && !word.dynamic && /^-[LPe@n]+$/.test(word.value)) {
      if (name === 'pushd' && word.value.includes('n')) return stays(start);
      if (word.value.includes('P')) physical = true;
      if (word.value.includes('L')) physical = false;
      continue;
    }
    if (options && !word.dynamic && /^[-+]/.test(word.value) && word.value !== '-' && name === 'cd')
      return stays({ unknown: `${name} ${word.text}: an option only the shell knows` });
    operands.push(word);
  }
  if (operands.length === 0) return stays({ unknown: `${name} without a folder` });
  // `cd a b` fails ("too many arguments") and leaves the shell where it was.
  if (operands.length > 1) return stays(start);
  const word = operands[0] as ShellWord;
  const target = cdTarget(word, context);
  if (typeof target !== 'string') return { ok: target, fail: start };
  if ('unknown' in start && !target.startsWith('/')) return stays(start);
  const bases = 'unknown' in start ? ['/'] : start.dirs;
  const dirs = bases.flatMap((base) => {
    const logical = resolve(base, target);
    const real = context.paths.from(base, target)?.real ?? logical;
    if (physical) return [real];
    return context.physicalMaybe ? [logical, real] : [logical];
  });
  const unique = [...new Set(dirs)];
  if (unique.length > MAX_CWD_CHOICES)
    return { ok: { unknown: 'the command may run in too many folders' }, fail: start };
  return { ok: { dirs: unique }, fail: start };
}

/** The folder a `cd` operand names (relative or absolute), or why it is unknown. */
function cdTarget(word: ShellWord, context: CwdContext): string | ShellCwd {
  if (word.dynamic || word.glob) return { unknown: `cd ${word.text}: a folder only known when it runs` };
  const value = word.value;
  if (value === '' || value === '-' || /^[-+]\d+$/.test(value))
    return { unknown: `cd ${word.text}: a folder from the shell's history` };
  if (word.tilde) {
    const tilde = /^~(\/|$)/.exec(value);
    if (!tilde || context.home === undefined)
      return { unknown: `cd ${word.text}: a home folder only known when it runs` };
    return resolve(context.home, value.slice(2));
  }
  if (!value.startsWith('/') && !/^\.\.?(\/|$)/.test(value) && context.cdpathMentioned)
    return { unknown: `cd ${word.text} may go through CDPATH` };
  return value;
}
