/**
 * EnterWorktree (compat-surface §1.6): the model moves its loop into a git worktree, a new one
 * by `name` or an existing one by `path`. The switch is a context change: from the next call on,
 * the loop's cwd and project root are the worktree, so relative paths, Bash's directory and the
 * permission checks' "inside the project" all follow it (the engine keeps both across turns).
 *
 * Where WorktreeCreate hooks are configured, they make a new worktree instead of git (any place,
 * any version control) and the WorktreeRemove hooks end it (ExitWorktree, or the session's end).
 * Making a worktree with git checks out files, which runs the repository's filters: a repository
 * whose own git configuration could run a program (git-config-safety) is refused with the reason,
 * also when a hook would make it (the hook may well check out with git too). Git's own hooks
 * never run (worktree-git's neutral configuration).
 */
import { resolve } from 'node:path';
import * as z from '../../../lib/zod';
import type { ToolUseContext } from '../../../tools/context';
import { buildTool, ToolError } from '../../../tools/tool';
import { agentRuntimeOf } from '../../runtime';
import { MAIN_LOOP, type MadeWorktree, sessionWorktreesOf } from '../session-worktrees';
import { parseWorktreeName, randomWorktreeName } from '../worktree-name';
import { createWorktree, openWorktree, WorktreeError } from '../worktrees';
import prompt from './enter-worktree.md';

// Built on first validation: the JSON Schema the model sees comes from the build.
const inputShape = () => ({
  name: z.optional(
    z
      .string()
      .check(
        z.describe('Name of a new worktree: [A-Za-z0-9._-] parts separated by /, at most 64 characters'),
      ),
  ),
  path: z.optional(
    z.string().check(z.describe('An existing worktree of this repository to enter, instead of name')),
  ),
});
const inputSchema = z.lazy(() => z.strictObject(inputShape()));
export type EnterWorktreeInput = z.infer<typeof inputSchema>;
export type EnterWorktreeOutput = { worktreePath: string; worktreeBranch?: string; message: string };

export const enterWorktreeTool = buildTool<EnterWorktreeInput, EnterWorktreeOutput>({
  name: 'EnterWorktree',
  tier: 'write',
  inputSchema,
  prompt,
  description: (input) => `Enter worktree ${input.name ?? input.path ?? '(new)'}`,
  async validateInput(input) {
    if (input.name !== undefined && input.path !== undefined)
      return { ok: false, message: 'Give either name (a new worktree) or path (an existing one), not both.' };
    if (input.name !== undefined) {
      const check = parseWorktreeName(input.name);
      if (!check.ok) return { ok: false, message: check.problem };
    }
    return { ok: true };
  },
  async checkPermissions(input, context) {
    const verdict = await context.services.gitConfig.check(context.cwd);
    if (!verdict.harmless)
      return {
        behavior: 'deny',
        message: `No worktree is made here: checking files out would run what this repository's git configuration names (${verdict.reason}).`,
      };
    // An existing worktree may have a configuration of its own (`config.worktree`), which the
    // status check of its changes when it is left would use.
    if (input.path !== undefined) {
      const own = await context.services.gitConfig.check(resolve(context.cwd, input.path));
      if (!own.harmless)
        return {
          behavior: 'deny',
          message: `The worktree ${input.path} is not entered: git there would run what its configuration names (${own.reason}).`,
        };
    }
    // A new branch and an ignored folder: nothing of the user's working copy changes.
    return { behavior: 'allow' };
  },
  mapResultToContent: (output) => output.message,
  async call(input, context) {
    const worktrees = sessionWorktreesOf(context.services);
    if (!worktrees) throw new ToolError('Worktrees are not available in this session.');
    const loop = context.agentId ?? MAIN_LOOP;
    const current = worktrees.current(loop);
    if (current)
      throw new ToolError(
        `Already working in the worktree ${current.worktree.path}; leave it with ExitWorktree before entering another.`,
      );
    const made = await makeOrOpen(input, context);
    worktrees.enter(loop, {
      ...made,
      origin: 'tool',
      originalCwd: context.cwd,
      originalProjectRoot: context.projectRoot,
    });
    const { path } = made.worktree;
    const branch = made.madeBy === 'git' ? made.worktree.branch : '';
    const how =
      made.madeBy === 'hook'
        ? `Created (by the WorktreeCreate hook) and entered the worktree ${path}`
        : `${made.worktree.createdHere ? 'Created and entered' : 'Entered'} the worktree ${path}${branch ? ` on branch ${branch}` : ''}`;
    return {
      data: {
        worktreePath: path,
        ...(branch ? { worktreeBranch: branch } : {}),
        message: `${how}. The working directory and project root are now this worktree; leave it with ExitWorktree.`,
      },
      contextModifier: (ctx) => ({ ...ctx, cwd: path, projectRoot: path }),
    };
  },
});

/**
 * A new worktree — made by the WorktreeCreate hooks where they are configured (as for isolated
 * agents), else by git with the `worktree` settings — or an existing git worktree by `path`.
 */
async function makeOrOpen(input: EnterWorktreeInput, context: ToolUseContext): Promise<MadeWorktree> {
  try {
    if (input.path !== undefined)
      return {
        madeBy: 'git',
        worktree: await openWorktree({ cwd: context.cwd, path: input.path, env: context.env }),
      };
    const check = input.name === undefined ? undefined : parseWorktreeName(input.name);
    const name = check?.ok ? check.name : randomWorktreeName(context.agentId ? 'agent' : 'session');
    const byHook = await context.hooks.worktreeCreate?.({ name }, context.abortSignal);
    if (byHook?.handled) {
      if ('error' in byHook) throw new ToolError(`No worktree is made: ${byHook.error}.`);
      // The hook's folder is a copy of the project: its deny rules hold there too.
      context.services.copies.add(byHook.path, context.projectRoot);
      return { madeBy: 'hook', worktree: { path: byHook.path, name, hooks: context.hooks } };
    }
    const settings = agentRuntimeOf(context.services)?.worktree;
    const worktree = await createWorktree({
      cwd: context.cwd,
      name,
      env: context.env,
      ...(settings ? { settings } : {}),
    });
    return { madeBy: 'git', worktree };
  } catch (error) {
    if (error instanceof WorktreeError) throw new ToolError(error.message);
    throw error;
  }
}
