/**
 * The branch checked out where a session starts, for the transcript's `gitBranch` (the resume
 * picker shows it, as Claude Code's does). Read from HEAD rather than asked of git: it is on the
 * way to the first request, and reading a file runs nothing of a repository's configuration.
 */
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readRegularTextSync } from '../lib/regular-file-text';
import { findGitRoot } from './git-root';

/** More than any `.git` file or HEAD holds; a planted FIFO or huge file there is not waited for. */
const HEAD_BYTES = 64 * 1024;

/** The branch's name; undefined outside a repository, on a detached HEAD, or when HEAD cannot be read. */
export function currentGitBranch(cwd: string): string | undefined {
  const root = findGitRoot(cwd);
  if (root === undefined) return undefined;
  try {
    let gitDir = join(root, '.git');
    // A worktree or a submodule has a `.git` file naming its folder.
    if (statSync(gitDir).isFile()) {
      const named = /^gitdir: (.+)$/m.exec(readRegularTextSync(gitDir, HEAD_BYTES))?.[1]?.trim();
      if (named === undefined) return undefined;
      gitDir = resolve(root, named);
    }
    return /^ref: refs\/heads\/(.+)$/m
      .exec(readRegularTextSync(join(gitDir, 'HEAD'), HEAD_BYTES))?.[1]
      ?.trim();
  } catch {
    return undefined;
  }
}
