/**
 * The worktrees one session is working in: the main session's (`--worktree`, or EnterWorktree)
 * and each agent's own EnterWorktree, one per loop. When the session ends, every worktree still
 * entered is finished by the rule (removed when unchanged, kept and reported otherwise), after
 * the session's shells are dead, so nothing still writes into it.
 *
 * Kept per session (keyed by its `SessionServices`, as the agent runtime is): two sessions in
 * one process never see each other's worktrees.
 */
import type { Env } from '../../model/types';
import type { SessionServices } from '../../tools/session-services';
import { describeChanges, finishWorktree, type Worktree, type WorktreeOutcome } from './worktrees';

/** Where a worktree came from: the user's `--worktree` flag, or the model's EnterWorktree. */
export type WorktreeOrigin = 'flag' | 'tool';

export type EnteredWorktree = {
  worktree: Worktree;
  origin: WorktreeOrigin;
  /** Where the loop worked before it entered (ExitWorktree goes back there). */
  originalCwd: string;
  originalProjectRoot: string;
};

/** The main session's loop; an agent's loop is keyed by its agent id. */
export const MAIN_LOOP = 'main';
/** The worktree `--worktree` started the session in: under its own key, so EnterWorktree can still nest one. */
export const FLAG_WORKTREE = '--worktree';

export class SessionWorktrees {
  private readonly entered = new Map<string, EnteredWorktree>();

  constructor(
    private readonly env: Env,
    private readonly report: (outcome: WorktreeOutcome, origin: WorktreeOrigin) => void,
  ) {}

  current(loop: string): EnteredWorktree | undefined {
    return this.entered.get(loop);
  }

  enter(loop: string, entry: EnteredWorktree): void {
    this.entered.set(loop, entry);
  }

  /** Forgets the loop's worktree (ExitWorktree has finished it or chosen to keep it). */
  leave(loop: string): EnteredWorktree | undefined {
    const entry = this.entered.get(loop);
    this.entered.delete(loop);
    return entry;
  }

  /** Finishes every worktree still entered, by the rule, and reports each outcome. */
  async finishAll(): Promise<void> {
    const entries = [...this.entered.values()];
    this.entered.clear();
    for (const { worktree, origin } of entries) {
      try {
        this.report(await finishWorktree(worktree, this.env), origin);
      } catch (error) {
        // The worktree stays on disk; what went wrong is said, with where it is.
        const why = error instanceof Error ? error.message : String(error);
        this.report(
          {
            kind: 'kept',
            path: worktree.path,
            branch: worktree.branch,
            changes: { uncommittedFiles: [], unmergedCommits: 0 },
            reason: `its state could not be checked (${why})`,
          },
          origin,
        );
      }
    }
  }
}

/** One line for the user on how a worktree ended. */
export function describeOutcome(outcome: WorktreeOutcome): string {
  if (outcome.kind === 'removed')
    return `Removed the unchanged worktree ${outcome.path} and its branch ${outcome.branch}.`;
  return `Kept the worktree ${outcome.path} (branch ${outcome.branch}): ${outcome.reason}.`;
}

export { describeChanges };

const sessions = new WeakMap<SessionServices, SessionWorktrees>();

/**
 * Gives a session its worktrees (the composition root does, once); they are finished when the
 * session's services are disposed, and each outcome is told through `report`.
 */
export function attachSessionWorktrees(
  services: SessionServices,
  env: Env,
  report: (outcome: WorktreeOutcome, origin: WorktreeOrigin) => void,
): SessionWorktrees {
  const existing = sessions.get(services);
  if (existing) return existing;
  const made = new SessionWorktrees(env, report);
  sessions.set(services, made);
  services.onDispose(() => made.finishAll());
  return made;
}

/** The session's worktrees; undefined for a session made without them (tool tests, libraries). */
export function sessionWorktreesOf(services: SessionServices): SessionWorktrees | undefined {
  return sessions.get(services);
}
