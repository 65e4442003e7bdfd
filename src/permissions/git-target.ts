/**
 * Where a git unit looks for its repository: the directory it runs in, moved by git's own leading
 * `-C` options. `--git-dir`/`--work-tree` (a repository named outright) and anything only known at
 * run time leave it unknown, with the reason as one line.
 */
import type { ShellWord } from '../services/bash-parser';

/**
 * The directory git works from: the unit's directory moved by leading `-C` options. Pointing git
 * elsewhere with `--git-dir`/`--work-tree`, or a `-C` only known at run time, makes it unknown.
 */
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
      target = resolvePath(next.value.startsWith('/') ? next.value : `${target}/${next.value}`);
    }
  }
  return target;
}
