/**
 * The files a repository tracks, for the Read deny and ask rules of git commands that print
 * tracked content no argument names (`git log -p`, `git show HEAD`, `git cat-file -p SHA`): such
 * a command may show a denied file if — and, for the work tree's index, only if — git tracks it.
 * Files that only past commits hold are not listed (git's history is not walked).
 *
 * Read with `git ls-files` under the same neutral environment as the repository check (no
 * fsmonitor, no optional locks), and kept per directory until the index changes.
 */
import { type Stats, statSync } from 'node:fs';
import { join } from 'node:path';
import { type GitResult, runGit, withGitConfig } from './git-neutral-env';

export type TrackedFiles = { topLevel: string; files: string[] } | { unknown: string };

const MAX_OUTPUT = 64 * 1024 * 1024;

const stamp = (stats: Stats | undefined) =>
  stats ? `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}` : '-';

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

export class TrackedFileLists {
  private readonly cache = new Map<string, { index: string; state: string; list: TrackedFiles }>();
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    env: NodeJS.ProcessEnv,
    private readonly timeoutMs: number,
  ) {
    this.env = withGitConfig({ ...env, LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0' }, [
      ['core.fsmonitor', 'false'],
    ]) as NodeJS.ProcessEnv;
  }

  /** The tracked files of the repository git would use from `directory` (none outside one). */
  async of(directory: string): Promise<TrackedFiles> {
    const cached = this.cache.get(directory);
    if (cached && stamp(statOf(cached.index)) === cached.state) return cached.list;
    const location = await this.git(
      ['rev-parse', '--path-format=absolute', '--git-dir', '--show-toplevel'],
      directory,
    );
    const [gitDir, topLevel] = location.stdout.split('\n');
    if (location.code !== 0 || !gitDir) {
      if (/not a git repository/i.test(location.stderr)) return { topLevel: directory, files: [] };
      return { unknown: `git could not tell which repository it would use (${location.stderr.trim()})` };
    }
    // A bare repository has no work tree: its files are only named by the history.
    if (!topLevel) return { unknown: 'the repository has no work tree whose files could be listed' };
    const index = join(gitDir, 'index');
    const state = stamp(statOf(index));
    const listed = await this.git(['ls-files', '-z', '--full-name', '--', ':/'], directory);
    const list: TrackedFiles =
      listed.code === 0
        ? { topLevel, files: listed.stdout.split('\0').filter(Boolean) }
        : { unknown: `git could not list the tracked files (${listed.stderr.trim()})` };
    if (stamp(statOf(index)) === state) this.cache.set(directory, { index, state, list });
    return list;
  }

  private git(args: string[], cwd: string): Promise<GitResult> {
    return runGit(args, { cwd, env: this.env, timeoutMs: this.timeoutMs, maxBuffer: MAX_OUTPUT });
  }
}
