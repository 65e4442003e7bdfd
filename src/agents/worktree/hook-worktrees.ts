/**
 * Worktrees that WorktreeCreate hooks make (any version control, any place). Yoke did not make
 * them, so it ends them through the WorktreeRemove hooks, and only by the same rule as its own:
 * where the folder is a git work tree, one with uncommitted files or commits no other branch holds
 * is kept and never handed to a remover. Without a WorktreeRemove hook such a worktree is kept.
 */
import { existsSync } from 'node:fs';
import type { HookRunner } from '../../hooks/types';
import type { Env } from '../../model/types';
import { gitIn, uncommittedFiles, unmergedCommits } from './worktree-git';
import { describeChanges, hasChanges, type WorktreeChanges, type WorktreeOutcome } from './worktrees';

/** What the folder holds, when git can tell; undefined for a folder git does not manage. */
async function gitChanges(path: string, env: Env): Promise<WorktreeChanges | undefined> {
  const git = gitIn(env);
  const inside = await git(['rev-parse', '--is-inside-work-tree'], path);
  if (inside.code !== 0 || inside.stdout.trim() !== 'true') return undefined;
  const branch = await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], path);
  return {
    uncommittedFiles: await uncommittedFiles(git, path),
    unmergedCommits: await unmergedCommits(git, path, branch.code === 0 ? branch.stdout.trim() : ''),
  };
}

export async function finishHookWorktree(
  path: string,
  hooks: HookRunner,
  env: Env,
  signal: AbortSignal,
): Promise<WorktreeOutcome> {
  const none: WorktreeChanges = { uncommittedFiles: [], unmergedCommits: 0 };
  const kept = (reason: string, changes = none): WorktreeOutcome => ({
    kind: 'kept',
    path,
    branch: '',
    changes,
    reason,
  });
  const changes = await gitChanges(path, env).catch(() => undefined);
  if (changes && hasChanges(changes)) return kept(describeChanges(changes), changes);
  const removed = await hooks.worktreeRemove?.({ path }, signal);
  if (!removed?.handled)
    return kept('a WorktreeCreate hook made it, and no WorktreeRemove hook is configured');
  if ('error' in removed) return kept(removed.error);
  return existsSync(path)
    ? kept('the WorktreeRemove hook left it in place')
    : { kind: 'removed', path, branch: '' };
}
