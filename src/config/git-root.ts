/**
 * The nearest folder at or above `start` holding `.git` (a folder, or a file in worktrees and
 * submodules), probed with existsSync: microseconds per level, where a failed async stat costs a
 * thread-pool round trip and an Error with a stack. Both run on the way to the first request.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export function findGitRoot(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}
