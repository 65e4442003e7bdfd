/**
 * Worktrees that WorktreeCreate hooks make (any version control, any place). Yoke did not make
 * them, so it ends them through the WorktreeRemove hooks, and only by the same rule as its own:
 * where the folder is a git work tree, one with uncommitted files or commits no other branch holds
 * is kept and never handed to a remover. Without a WorktreeRemove hook such a worktree is kept.
 */
import { existsSync } from 'node:fs';
import type { HookRunner } from '../../hooks/types';
import type { Env } from '../../model/types';
import { GitConfigSafety } from '../../permissions/git-config-safety';
import { gitIn, uncommittedFiles, unmergedCommits } from './worktree-git';
import { describeChanges, hasChanges, type WorktreeChanges, type WorktreeOutcome } from './worktrees';

/**
 * A worktree a WorktreeCreate hook made: Yoke knows only its path and the name the hook was
 * given, and ends it through the hooks that made it (the same configuration's WorktreeRemove).
 */
export type HookWorktree = { path: string; name: string; hooks: HookRunner };

const NO_CHANGES: WorktreeChanges = { uncommittedFiles: [], unmergedCommits: 0 };

/**
 * Why asking git about the folder would run a program, or undefined. A hook that copies the
 * repository whole copies its git configuration too, and `git status` runs the clean filters and
 * fsmonitor a planted one names; such a folder is never asked (nor handed to a remover).
 */
export async function gitStatusRisk(path: string, env: Env): Promise<string | undefined> {
  const verdict = await new GitConfigSafety({ env }).check(path);
  return verdict.harmless
    ? undefined
    : `its git configuration would run a program on git status (${verdict.reason})`;
}

/** What the folder holds, when git can tell; undefined for a folder git does not manage. */
export async function hookWorktreeChanges(path: string, env: Env): Promise<WorktreeChanges | undefined> {
  const git = gitIn(env);
  const inside = await git(['rev-parse', '--is-inside-work-tree'], path);
  if (inside.code !== 0 || inside.stdout.trim() !== 'true') return undefined;
  const branch = await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], path);
  return {
    uncommittedFiles: await uncommittedFiles(git, path),
    unmergedCommits: await unmergedCommits(git, path, branch.code === 0 ? branch.stdout.trim() : ''),
  };
}

/** What handing a hook-made worktree to the WorktreeRemove hooks did. */
export type HookRemoval = { kind: 'removed' } | { kind: 'no-remover' } | { kind: 'failed'; reason: string };

/** Runs the WorktreeRemove hooks for `path`; removed only when they succeed and the folder is gone. */
export async function removeHookWorktree(
  path: string,
  hooks: HookRunner,
  signal: AbortSignal,
): Promise<HookRemoval> {
  const removed = await hooks.worktreeRemove?.({ path }, signal);
  if (!removed?.handled) return { kind: 'no-remover' };
  if ('error' in removed) return { kind: 'failed', reason: removed.error };
  return existsSync(path)
    ? { kind: 'failed', reason: 'the WorktreeRemove hook left it in place' }
    : { kind: 'removed' };
}

/** Why a hook-made worktree stays when no WorktreeRemove hook is configured. */
export const NO_REMOVER_REASON = 'a WorktreeCreate hook made it, and no WorktreeRemove hook is configured';

export async function finishHookWorktree(
  path: string,
  hooks: HookRunner,
  env: Env,
  signal: AbortSignal,
): Promise<WorktreeOutcome> {
  const kept = (reason: string, changes = NO_CHANGES): WorktreeOutcome => ({
    kind: 'kept',
    path,
    branch: '',
    changes,
    reason,
  });
  const risk = await gitStatusRisk(path, env);
  if (risk) return kept(`${risk}, so it was not checked for changes`);
  const changes = await hookWorktreeChanges(path, env).catch(() => undefined);
  if (changes && hasChanges(changes)) return kept(describeChanges(changes), changes);
  const removal = await removeHookWorktree(path, hooks, signal);
  if (removal.kind === 'no-remover') return kept(NO_REMOVER_REASON);
  if (removal.kind === 'failed') return kept(removal.reason);
  return { kind: 'removed', path, branch: '' };
}
