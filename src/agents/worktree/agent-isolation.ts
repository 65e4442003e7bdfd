/**
 * `isolation: worktree` for one agent run (on its definition or the Agent call): the worker runs
 * in a new worktree `agent-<id>` on its own branch, so its cwd, project root and permission paths
 * are the worktree's. When the run ends — completed, failed or stopped — the worktree is finished
 * by the rule: removed with its branch when unchanged, kept otherwise, and the caller reports
 * where. A repository whose git configuration could run a program on checkout is refused. Where
 * WorktreeCreate hooks are configured they make the worktree instead (hook-worktrees.ts).
 */
import type { ToolUseContext } from '../../tools/context';
import { ToolError } from '../../tools/tool';
import { agentRuntimeOf } from '../runtime';
import { finishHookWorktree } from './hook-worktrees';
import type { WorktreeName } from './worktree-name';
import {
  createWorktree,
  finishWorktree,
  type Worktree,
  WorktreeError,
  type WorktreeOutcome,
} from './worktrees';

export type IsolatedRun<T> = { result: T; worktree: WorktreeOutcome };

/** The worktree's name for an agent id (`a` and 16 hex digits): `agent-<first 12>`. */
const nameFor = (agentId: string): WorktreeName =>
  `agent-${agentId.replace(/[^0-9a-f]/g, '').slice(0, 12)}` as WorktreeName;

export async function runInWorktree<T>(
  parent: Pick<ToolUseContext, 'cwd' | 'projectRoot' | 'env' | 'services' | 'hooks' | 'abortSignal'>,
  agentId: string,
  run: (cwd: string) => Promise<T>,
): Promise<IsolatedRun<T>> {
  const name = nameFor(agentId);
  // WorktreeCreate hooks, when configured, make it instead of git.
  const made = await parent.hooks.worktreeCreate?.({ name }, parent.abortSignal);
  if (made?.handled) {
    if ('error' in made)
      throw new ToolError(`No worktree is made for the agent: ${made.error}. Call Agent without isolation.`);
    // The hook's folder is a copy of the parent's project: its deny rules hold there too.
    const { copies } = parent.services;
    copies.add(made.path, parent.projectRoot);
    const finish = async () => {
      const outcome = await finishHookWorktree(made.path, parent.hooks, parent.env, parent.abortSignal);
      if (outcome.kind === 'removed') copies.remove(made.path);
      return outcome;
    };
    return runThenFinish(() => run(made.path), finish);
  }
  const verdict = await parent.services.gitConfig.check(parent.cwd);
  if (!verdict.harmless)
    throw new ToolError(
      `No worktree is made for the agent: checking files out would run what this repository's git configuration names (${verdict.reason}). Call Agent without isolation.`,
    );
  let worktree: Worktree;
  try {
    const settings = agentRuntimeOf(parent.services)?.worktree;
    worktree = await createWorktree({
      cwd: parent.cwd,
      name,
      env: parent.env,
      ...(settings ? { settings } : {}),
    });
  } catch (error) {
    if (error instanceof WorktreeError) throw new ToolError(`${error.message} Call Agent without isolation.`);
    throw error;
  }
  const created = worktree;
  return runThenFinish(
    () => run(created.path),
    () => finishWorktree(created, parent.env),
  );
}

/** Runs the worker and ends its worktree by the rule, also when the run fails (its work stays). */
async function runThenFinish<T>(
  run: () => Promise<T>,
  finish: () => Promise<WorktreeOutcome>,
): Promise<IsolatedRun<T>> {
  let result: T;
  try {
    result = await run();
  } catch (error) {
    await finish().catch(() => undefined);
    throw error;
  }
  return { result, worktree: await finish() };
}

/** The Agent tool's output fields for the worktree (reference: `worktreePath`, `worktreeBranch`), when kept. */
export function worktreeFields(outcome: WorktreeOutcome | undefined): {
  worktreePath?: string;
  worktreeBranch?: string;
} {
  if (outcome?.kind !== 'kept') return {};
  return { worktreePath: outcome.path, worktreeBranch: outcome.branch };
}

/** One line for the model on what happened to the agent's worktree. */
export function worktreeLine(outcome: WorktreeOutcome): string {
  if (outcome.kind === 'removed') return 'The agent made no changes; its worktree was removed.';
  return `The agent's work is in the worktree ${outcome.path} on branch ${outcome.branch} (${outcome.reason}); merge or review it from there.`;
}
