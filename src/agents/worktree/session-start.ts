/**
 * `--worktree` / `--worktree=name` for the main session: the session starts in a new worktree
 * (its cwd, project root, settings, memory files and transcript folder are the worktree's) and,
 * when it ends, the worktree is finished by the rule — removed when unchanged, kept and reported
 * otherwise. `--worktree=name` reopens the worktree of that name when an earlier session kept
 * it. The composition root calls `sessionWorktree` before anything reads the cwd, and `attach`
 * once the session's services exist.
 */
import type { Env } from '../../model/types';
import type { SessionServices } from '../../tools/session-services';
import { attachSessionWorktrees, describeOutcome, FLAG_WORKTREE } from './session-worktrees';
import { parseWorktreeName, randomWorktreeName } from './worktree-name';
import { createWorktree, type Worktree, WorktreeError } from './worktrees';

export class WorktreeFlagError extends Error {
  override name = 'WorktreeFlagError';
}

export type SessionWorktreeStart = {
  /** Where the session runs: the worktree, or the cwd it was given. */
  cwd: string;
  worktree?: Worktree;
  /** Gives the session its worktrees (and the flag's worktree to finish at the end). */
  attach(services: SessionServices): void;
};

/**
 * `flag`: undefined without `--worktree`, true for a bare `--worktree` (a random name), or the
 * name. A bad name or a folder that is no repository stops the start with one readable line.
 */
export async function sessionWorktree(
  flag: string | true | undefined,
  cwd: string,
  env: Env,
  log: { warn(text: string): void; debug(text: string): void },
): Promise<SessionWorktreeStart> {
  const attach = (worktree: Worktree | undefined) => (services: SessionServices) => {
    const worktrees = attachSessionWorktrees(services, env, (outcome) => log.warn(describeOutcome(outcome)));
    if (worktree)
      worktrees.enter(FLAG_WORKTREE, {
        worktree,
        origin: 'flag',
        originalCwd: cwd,
        originalProjectRoot: cwd,
      });
  };
  if (flag === undefined) return { cwd, attach: attach(undefined) };
  let name = randomWorktreeName('session');
  if (flag !== true) {
    const check = parseWorktreeName(flag);
    if (!check.ok) throw new WorktreeFlagError(`--worktree: ${check.problem}`);
    name = check.name;
  }
  let worktree: Worktree;
  try {
    worktree = await createWorktree({ cwd, name, env, reuseExisting: flag !== true });
  } catch (error) {
    if (error instanceof WorktreeError) throw new WorktreeFlagError(`--worktree: ${error.message}`);
    throw error;
  }
  log.debug(
    `${worktree.createdHere ? 'working in the new' : 'reopened the'} worktree ${worktree.path} (branch ${worktree.branch})`,
  );
  return { cwd: worktree.path, worktree, attach: attach(worktree) };
}
