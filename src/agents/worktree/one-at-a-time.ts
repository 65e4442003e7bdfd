/**
 * Git commands that make, list or remove worktrees run one at a time per repository.
 *
 * `git worktree add` builds the new worktree's admin folder (`.git/worktrees/<id>`) in steps, and
 * a git command that reads every worktree meanwhile — another `worktree add`, `worktree list`,
 * `worktree remove`, `branch -D` — fails on the half-made one ("failed to read
 * .git/worktrees/<id>/commondir"). Parallel agents with `isolation: worktree` ask for their
 * worktrees in the same instant, so without this some of them fail to start.
 *
 * The queues are module-level on purpose, an exception to session-scoped state: the repository is
 * shared by every session in the process, and a per-session queue would not keep two sessions'
 * agents apart. Another process working in the same repository is not covered (git offers no
 * lock to take for this).
 */
import { realpathSync } from 'node:fs';

/** The last piece of work queued per repository; it settles when the repository is free. */
const lastQueued = new Map<string, Promise<void>>();

export function oneAtATimeIn<T>(repoRoot: string, work: () => Promise<T>): Promise<T> {
  const key = canonical(repoRoot);
  const before = lastQueued.get(key) ?? Promise.resolve();
  const result = before.then(work);
  const settled = result.then(
    () => undefined,
    () => undefined,
  );
  lastQueued.set(key, settled);
  // Forget a repository once its queue is empty, so a long session does not keep every key.
  void settled.then(() => {
    if (lastQueued.get(key) === settled) lastQueued.delete(key);
  });
  return result;
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
