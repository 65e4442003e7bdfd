import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HooksSettings } from '../../../config/settings-schema';
import { GitConfigSafety } from '../../../permissions/git-config-safety';
import { makeTestContext } from '../../../tools/builtin/shared/test-context';
import { SessionServices } from '../../../tools/session-services';
import { createWorktreeHookBed, type WorktreeHookBed } from '../hook-test-bed';
import { attachSessionWorktrees } from '../session-worktrees';
import { makeTestRepo, type TestRepo } from '../test-repo';
import type { WorktreeOutcome } from '../worktrees';
import { enterWorktreeTool, exitWorktreeTool } from '.';
import { runTool } from './test-support';

const beds: WorktreeHookBed[] = [];
const repos: TestRepo[] = [];
afterEach(async () => {
  for (const bed of beds.splice(0)) await bed.cleanup();
  for (const repo of repos.splice(0)) rmSync(repo.root, { recursive: true, force: true });
});

/** A session whose hooks are `hooks` (of the bed), working in `cwd` (a plain folder unless given). */
async function session(
  hooks: (bed: WorktreeHookBed) => Promise<HooksSettings> | HooksSettings,
  cwd?: string,
) {
  const bed = await createWorktreeHookBed();
  beds.push(bed);
  const work = cwd ?? join(bed.dir, 'plain-project');
  mkdirSync(work, { recursive: true });
  const env = { PATH: process.env.PATH ?? '' };
  const services = new SessionServices({ env, gitConfig: new GitConfigSafety({ env }) });
  const reports: WorktreeOutcome[] = [];
  attachSessionWorktrees(services, env, (outcome) => reports.push(outcome));
  const context = makeTestContext({ cwd: work, env, services, hooks: bed.runner(await hooks(bed)) });
  context.projectRoot = work;
  return { bed, work, services, context, reports };
}

describe('EnterWorktree and ExitWorktree with WorktreeCreate hooks', () => {
  it('the hook makes the worktree (no git repository needed); remove hands it to WorktreeRemove', async () => {
    const { bed, work, context, services } = await session((b) => b.settings(b.create.folder, b.remove));
    await expect(enterWorktreeTool.checkPermissions({ name: 'side' }, context)).resolves.toEqual({
      behavior: 'allow',
    });
    const entered = await runTool(enterWorktreeTool, { name: 'side' }, context);
    const path = join(bed.trees, 'side');
    expect(entered.data).toEqual({
      worktreePath: path,
      message: `Created (by the WorktreeCreate hook) and entered the worktree ${path}. The working directory and project root are now this worktree; leave it with ExitWorktree.`,
    });
    expect(entered.context.cwd).toBe(path);
    expect(bed.calls()[0]).toMatchObject({ hook_event_name: 'WorktreeCreate', name: 'side' });

    const left = await runTool(exitWorktreeTool, { action: 'remove' }, entered.context);
    expect(left.context.cwd).toBe(work);
    expect(left.data.message).toBe(
      `Removed the worktree ${path} through the WorktreeRemove hook. The working directory is ${work} again.`,
    );
    expect(bed.calls()[1]).toMatchObject({ hook_event_name: 'WorktreeRemove', worktree_path: path });
    expect(existsSync(path)).toBe(false);
    // Nothing is left for the session's end.
    await services.dispose();
    expect(bed.calls()).toHaveLength(2);
  });

  it('without a WorktreeRemove hook, remove leaves the worktree in place and says so', async () => {
    const { bed, work, context } = await session((b) => b.settings(b.create.folder));
    const entered = await runTool(enterWorktreeTool, {}, context);
    expect(entered.context.cwd.startsWith(join(bed.trees, 'session-'))).toBe(true);
    const left = await runTool(exitWorktreeTool, { action: 'remove' }, entered.context);
    expect(left.context.cwd).toBe(work);
    expect(left.data.message).toContain('no WorktreeRemove hook is configured, so it stays at');
    expect(existsSync(entered.context.cwd)).toBe(true);
  });

  it('a failing or garbage-printing hook refuses the call with its reason; git makes nothing instead', async () => {
    const repo = makeTestRepo();
    repos.push(repo);
    for (const [pick, reason] of [
      [
        (b: WorktreeHookBed) => b.create.failing,
        /^No worktree is made: the WorktreeCreate hook failed: .*no space left/,
      ],
      [(b: WorktreeHookBed) => b.create.garbage, /gave "worktree ready: see above", not an absolute path\.$/],
    ] as const) {
      const { context } = await session((b) => b.settings(pick(b)), repo.work);
      await expect(enterWorktreeTool.call({ name: 'x' }, context, () => {})).rejects.toThrow(reason);
    }
    expect(repo.git(repo.work, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
  });

  it('a hook-made git worktree with work in it: remove refuses, discard asks, then the remover runs', async () => {
    const repo = makeTestRepo();
    repos.push(repo);
    const { bed, context, reports, services } = await session(
      async (b) => b.settings(await b.create.gitWorktree(repo.work), b.remove),
      repo.work,
    );
    const entered = await runTool(enterWorktreeTool, { name: 'dirty' }, context);
    writeFileSync(join(entered.context.cwd, 'draft.md'), 'draft\n');
    await expect(exitWorktreeTool.call({ action: 'remove' }, entered.context, () => {})).rejects.toThrow(
      '1 uncommitted file (draft.md), so it was not removed',
    );
    expect(readFileSync(join(entered.context.cwd, 'draft.md'), 'utf8')).toBe('draft\n');
    await expect(
      exitWorktreeTool.checkPermissions({ action: 'remove', discard_changes: true }, entered.context),
    ).resolves.toMatchObject({ behavior: 'ask', message: expect.stringContaining('draft.md') });
    const discarded = await runTool(
      exitWorktreeTool,
      { action: 'remove', discard_changes: true },
      entered.context,
    );
    expect(discarded.data).toMatchObject({ discardedFiles: 1, discardedCommits: 0 });
    expect(bed.calls().map((call) => call.hook_event_name)).toEqual(['WorktreeCreate', 'WorktreeRemove']);
    expect(existsSync(entered.context.cwd)).toBe(false);
    await services.dispose();
    expect(reports).toEqual([]);
  });

  it('a hook-made worktree still entered at the session end goes through WorktreeRemove', async () => {
    const { bed, context, services, reports } = await session((b) => b.settings(b.create.folder, b.remove));
    const entered = await runTool(enterWorktreeTool, { name: 'open' }, context);
    await services.dispose();
    expect(reports).toEqual([{ kind: 'removed', path: entered.context.cwd, branch: '' }]);
    expect(bed.calls()[1]).toMatchObject({
      hook_event_name: 'WorktreeRemove',
      worktree_path: entered.context.cwd,
    });
  });
});
