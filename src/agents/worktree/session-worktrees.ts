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
import { finishHookWorktree, type HookWorktree } from './hook-worktrees';
import { describeChanges, finishWorktree, type Worktree, type WorktreeOutcome } from './worktrees';

/** Where a worktree came from: the user's `--worktree` flag, or the model's EnterWorktree. */
export type WorktreeOrigin = 'flag' | 'tool';

/** Who made a worktree, and so how it ends: git by the keep-or-remove rule, a hook through WorktreeRemove. */
export type MadeWorktree = { madeBy: 'git'; worktree: Worktree } | { madeBy: 'hook'; worktree: HookWorktree };

export type EnteredWorktree = MadeWorktree & {
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
    for (const entry of entries) {
      const { worktree, origin } = entry;
      try {
        this.report(await finishMade(entry, this.env), origin);
      } catch (error) {
        // The worktree stays on disk; what went wrong is said, with where it is.
        const why = error instanceof Error ? error.message : String(error);
        this.report(
          {
            kind: 'kept',
            path: worktree.path,
            branch: entry.madeBy === 'git' ? entry.worktree.branch : '',
            changes: { uncommittedFiles: [], unmergedCommits: 0 },
            reason: `its state could not be checked (${why})`,
          },
          origin,
        );
      }
    }
  }
}

/**
 * Ends a worktree at the session's end: git's by the rule, a hook's through the WorktreeRemove
 * hooks of the configuration that made it. Nobody waits on a session's end, so nothing aborts the
 * hooks but their own timeouts.
 */
function finishMade(made: MadeWorktree, env: Env): Promise<WorktreeOutcome> {
  if (made.madeBy === 'git') return finishWorktree(made.worktree, env);
  return finishHookWorktree(made.worktree.path, made.worktree.hooks, env, new AbortController().signal);
}

/** One line for the user on how a worktree ended (a hook-made one has no branch of Yoke's). */
export function describeOutcome(outcome: WorktreeOutcome): string {
  if (outcome.kind === 'removed')
    return outcome.branch
      ? `Removed the unchanged worktree ${outcome.path} and its branch ${outcome.branch}.`
      : `Removed the worktree ${outcome.path} through the WorktreeRemove hook.`;
  const branch = outcome.branch ? ` (branch ${outcome.branch})` : '';
  return `Kept the worktree ${outcome.path}${branch}: ${outcome.reason}.`;
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
