/**
 * ExitWorktree (compat-surface §1.6): leaves the worktree EnterWorktree entered and goes back to
 * where the loop worked before. `keep` leaves it on disk; `remove` deletes it with its branch, but
 * only by the rule (nothing uncommitted, no commit only it holds) unless `discard_changes` says
 * the user wants the work thrown away — a call that always asks, naming what would be lost.
 * A worktree a WorktreeCreate hook made goes through the WorktreeRemove hooks by the same rule
 * (its changes counted where git can tell); with no such hook it stays, and the answer says so.
 */
import * as z from '../../../lib/zod';
import type { Env } from '../../../model/types';
import { buildTool, ToolError } from '../../../tools/tool';
import { gitStatusRisk, hookWorktreeChanges, removeHookWorktree } from '../hook-worktrees';
import {
  type EnteredWorktree,
  FLAG_WORKTREE,
  MAIN_LOOP,
  type MadeWorktree,
  sessionWorktreesOf,
} from '../session-worktrees';
import {
  describeChanges,
  finishWorktree,
  hasChanges,
  type WorktreeChanges,
  type WorktreeOutcome,
  worktreeChanges,
} from '../worktrees';
import prompt from './exit-worktree.md';

// Built on first validation: the JSON Schema the model sees comes from the build.
const inputShape = () => ({
  action: z
    .enum(['keep', 'remove'])
    .check(z.describe('keep: leave the worktree on disk; remove: delete it and its branch')),
  discard_changes: z.optional(
    z.boolean().check(z.describe('With remove: delete it even with uncommitted files or unmerged commits')),
  ),
});
const inputSchema = z.lazy(() => z.strictObject(inputShape()));
export type ExitWorktreeInput = z.infer<typeof inputSchema>;
export type ExitWorktreeOutput = {
  action: 'keep' | 'remove';
  originalCwd: string;
  worktreePath: string;
  worktreeBranch?: string;
  discardedFiles?: number;
  discardedCommits?: number;
  message: string;
};

const discards = (input: ExitWorktreeInput) => input.action === 'remove' && input.discard_changes === true;

export const exitWorktreeTool = buildTool<ExitWorktreeInput, ExitWorktreeOutput>({
  name: 'ExitWorktree',
  tier: 'write',
  inputSchema,
  prompt,
  description: (input) =>
    input.action === 'keep' ? 'Leave the worktree (keep it)' : 'Leave and remove the worktree',
  isDestructive: discards,
  async checkPermissions(input, context) {
    if (!discards(input)) return { behavior: 'allow' };
    const entry = sessionWorktreesOf(context.services)?.current(context.agentId ?? MAIN_LOOP);
    if (!entry) return { behavior: 'allow' };
    const changes = await changesIn(entry, context.env);
    if (!hasChanges(changes)) return { behavior: 'allow' };
    return {
      behavior: 'ask',
      message: `Delete the worktree ${entry.worktree.path} with ${describeChanges(changes)}?`,
    };
  },
  mapResultToContent: (output) => output.message,
  async call(input, context) {
    const worktrees = sessionWorktreesOf(context.services);
    const loop = context.agentId ?? MAIN_LOOP;
    const entry = worktrees?.current(loop);
    if (!worktrees || !entry) throw new ToolError(notEnteredMessage(worktrees?.current(FLAG_WORKTREE)));
    const { worktree, originalCwd, originalProjectRoot } = entry;
    const branch = entry.madeBy === 'git' ? entry.worktree.branch : '';
    const back = {
      contextModifier: (ctx: typeof context) => ({
        ...ctx,
        cwd: originalCwd,
        projectRoot: originalProjectRoot,
      }),
    };
    const base = {
      action: input.action,
      originalCwd,
      worktreePath: worktree.path,
      ...(branch ? { worktreeBranch: branch } : {}),
    };
    if (input.action === 'keep') {
      worktrees.leave(loop);
      return {
        data: {
          ...base,
          message: `Left the worktree; it stays at ${worktree.path}${branch ? ` on branch ${branch}` : ''}. The working directory is ${originalCwd} again.`,
        },
        ...back,
      };
    }
    const changes = await changesIn(entry, context.env);
    if (hasChanges(changes) && !input.discard_changes)
      throw new ToolError(
        `The worktree has ${describeChanges(changes)}, so it was not removed. Use action "keep" to leave it for review, or discard_changes: true if the user wants this work deleted.`,
      );
    const outcome = await removeMade(entry, context.env, context.abortSignal, input.discard_changes === true);
    if (outcome.kind === 'no-remover') {
      worktrees.leave(loop);
      return {
        data: {
          ...base,
          message: `Left the worktree but did not remove it: a WorktreeCreate hook made it and no WorktreeRemove hook is configured, so it stays at ${worktree.path}. The working directory is ${originalCwd} again.`,
        },
        ...back,
      };
    }
    if (outcome.kind === 'kept')
      throw new ToolError(
        `The worktree was not removed: ${outcome.reason}. It is still the working directory.`,
      );
    worktrees.leave(loop);
    const discarded = input.discard_changes
      ? { discardedFiles: changes.uncommittedFiles.length, discardedCommits: changes.unmergedCommits }
      : {};
    return {
      data: {
        ...base,
        ...discarded,
        message: `Removed the worktree ${worktree.path}${branch ? ` and its branch ${branch}` : ''}${entry.madeBy === 'hook' ? ' through the WorktreeRemove hook' : ''}${hasChanges(changes) ? ` (discarded ${describeChanges(changes)})` : ''}. The working directory is ${originalCwd} again.`,
      },
      ...back,
    };
  },
});

function notEnteredMessage(flag: EnteredWorktree | undefined): string {
  if (flag)
    return `No worktree was entered with EnterWorktree. The session itself runs in ${flag.worktree.path} (made with --worktree), which is finished when the session ends.`;
  return 'No worktree was entered with EnterWorktree, so there is none to leave.';
}

/** What removing would lose; a hook-made folder git does not manage counts as unchanged. */
async function changesIn(made: MadeWorktree, env: Env): Promise<WorktreeChanges> {
  if (made.madeBy === 'git') return worktreeChanges(made.worktree, env);
  const risk = await gitStatusRisk(made.worktree.path, env);
  if (risk)
    throw new ToolError(
      `The worktree ${made.worktree.path} was not checked for changes: ${risk}. Use action "keep" to leave it.`,
    );
  return (await hookWorktreeChanges(made.worktree.path, env)) ?? { uncommittedFiles: [], unmergedCommits: 0 };
}

/** Removes the worktree: git's with `git worktree remove`, a hook's through the WorktreeRemove hooks. */
async function removeMade(
  made: MadeWorktree,
  env: Env,
  signal: AbortSignal,
  discard: boolean,
): Promise<WorktreeOutcome | { kind: 'no-remover' }> {
  if (made.madeBy === 'git') return finishWorktree(made.worktree, env, { discard });
  const { path } = made.worktree;
  const removal = await removeHookWorktree(path, made.worktree.hooks, signal);
  if (removal.kind === 'removed') return { kind: 'removed', path, branch: '' };
  if (removal.kind === 'no-remover') return removal;
  const changes = { uncommittedFiles: [], unmergedCommits: 0 };
  return { kind: 'kept', path, branch: '', changes, reason: removal.reason };
}
