/**
 * Why `git …`, read-only by its arguments, is not read-only where it runs: the repository it would
 * use has configuration that can run a program (aliases, hooks, pagers, filters…), or could not be
 * checked. One answer per repository for a whole command line: `git status && git log` asks once.
 */
import type { ShellWord } from '../services/bash-parser';
import type { GitConfigSafety, GitConfigVerdict } from './git-config-safety';
import { gitTargetDirectory } from './git-target';
import { resolveUserPath } from './path-rules';
import type { ShellCwd } from './shell-cd';

export class GitReadOnlyBlocker {
  private readonly verdicts = new Map<string, Promise<GitConfigVerdict>>();

  constructor(
    private readonly options: {
      /** The session's check of repository configuration; without it git is never read-only. */
      gitConfig: GitConfigSafety | undefined;
      /** The folder the command line starts in. */
      cwd: string;
      home: string;
    },
  ) {}

  /** The blocker for git in every folder the line may have moved it to (`cd a || cd b`). */
  async in(args: readonly ShellWord[], cwd: ShellCwd): Promise<string | undefined> {
    if ('unknown' in cwd) return this.inDirectory(args, undefined);
    for (const dir of cwd.dirs) {
      const blocker = await this.inDirectory(args, dir);
      if (blocker) return blocker;
    }
    return undefined;
  }

  /**
   * The blocker for `git <args>` run in `directory`. An unknown directory, or one git is pointed
   * away from with `--git-dir`/`--work-tree`, cannot be checked.
   */
  private async inDirectory(
    args: readonly ShellWord[],
    directory: string | undefined,
  ): Promise<string | undefined> {
    const { options } = this;
    const target = gitTargetDirectory(args, directory, (path) =>
      resolveUserPath(path, directory ?? options.cwd, options.home),
    );
    if (typeof target !== 'string') return target.unknown;
    const check = options.gitConfig;
    if (!check)
      return 'git is not read-only here: its repository was not checked for settings that run programs';
    let verdict = this.verdicts.get(target);
    if (!verdict) {
      verdict = check.check(target);
      this.verdicts.set(target, verdict);
    }
    const result = await verdict;
    return result.harmless ? undefined : `git is not read-only here: ${result.reason}`;
  }
}
