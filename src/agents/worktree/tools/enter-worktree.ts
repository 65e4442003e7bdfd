/**
 * EnterWorktree (compat-surface §1.6): the model moves its loop into a git worktree, a new one
 * by `name` or an existing one by `path`. The switch is a context change: from the next call on,
 * the loop's cwd and project root are the worktree, so relative paths, Bash's directory and the
 * permission checks' "inside the project" all follow it (the engine keeps both across turns).
 *
 * Making a worktree checks out files, which runs the repository's filters: a repository whose own
 * git configuration could run a program (git-config-safety) is refused with the reason. Hooks
 * never run (worktree-git's neutral configuration).
 */
import * as z from '../../../lib/zod';
import { buildTool, ToolError } from '../../../tools/tool';
import { agentRuntimeOf } from '../../runtime';
import { MAIN_LOOP, sessionWorktreesOf } from '../session-worktrees';
import { parseWorktreeName, randomWorktreeName } from '../worktree-name';
import { createWorktree, openWorktree, type Worktree, WorktreeError } from '../worktrees';
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
  async checkPermissions(_input, context) {
    const verdict = await context.services.gitConfig.check(context.cwd);
    if (!verdict.harmless)
      return {
        behavior: 'deny',
        message: `No worktree is made here: checking files out would run what this repository's git configuration names (${verdict.reason}).`,
      };
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
    let worktree: Worktree;
    try {
      if (input.path !== undefined) {
        worktree = await openWorktree({ cwd: context.cwd, path: input.path, env: context.env });
      } else {
        const check = input.name === undefined ? undefined : parseWorktreeName(input.name);
        const name = check?.ok ? check.name : randomWorktreeName(context.agentId ? 'agent' : 'session');
        const settings = agentRuntimeOf(context.services)?.worktree;
        worktree = await createWorktree({
          cwd: context.cwd,
          name,
          env: context.env,
          ...(settings ? { settings } : {}),
        });
      }
    } catch (error) {
      if (error instanceof WorktreeError) throw new ToolError(error.message);
      throw error;
    }
    worktrees.enter(loop, {
      worktree,
      origin: 'tool',
      originalCwd: context.cwd,
      originalProjectRoot: context.projectRoot,
    });
    const made = worktree.createdHere ? 'Created and entered' : 'Entered';
    return {
      data: {
        worktreePath: worktree.path,
        ...(worktree.branch ? { worktreeBranch: worktree.branch } : {}),
        message: `${made} the worktree ${worktree.path}${worktree.branch ? ` on branch ${worktree.branch}` : ''}. The working directory and project root are now this worktree; leave it with ExitWorktree.`,
      },
      contextModifier: (ctx) => ({ ...ctx, cwd: worktree.path, projectRoot: worktree.path }),
    };
  },
});
