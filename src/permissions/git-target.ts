/**
 * Where a git unit looks for its repository: the directory it runs in, moved by git's own leading
 * `-C` options. `--git-dir`/`--work-tree` (a repository named outright) and anything only known at
 * run time leave it unknown, with the reason as one line.
 */
import { resolve } from 'node:path';
import type { ShellWord } from '../services/bash-parser';

/** `resolvePath` resolves `~` and absolute paths the way the shell analysis does. */
export function gitTargetDirectory(
  args: readonly ShellWord[],
  directory: string | undefined,
  resolvePath: (path: string) => string,
): string | { unknown: string } {
  if (directory === undefined)
    return {
      unknown: 'git is not read-only here: the directory it runs in is only known when the command runs',
    };
  let target = directory;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as ShellWord;
    if (word.dynamic)
      return { unknown: `git is not read-only here: its option ${word.text} is only known when it runs` };
    const value = word.value;
    if (!value.startsWith('-')) break;
    if (/^--(git-dir|work-tree)(=|$)/.test(value))
      return {
        unknown: `git is not read-only here: ${value.split('=')[0]} points it at a repository whose settings are not checked`,
      };
    if (value === '-C') {
      const next = args[++i];
      if (!next || next.dynamic)
        return { unknown: 'git is not read-only here: the directory given to -C is only known when it runs' };
      // Relative to where the previous -C left git; `~` and absolute paths stand alone.
      target = /^[~/]/.test(next.value) ? resolvePath(next.value) : resolve(target, next.value);
    }
  }
  return target;
}
