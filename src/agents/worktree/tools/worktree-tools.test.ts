import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitConfigSafety } from '../../../permissions/git-config-safety';
import { makeTestContext } from '../../../tools/builtin/shared/test-context';
import { SessionServices } from '../../../tools/session-services';
import { ToolError } from '../../../tools/tool';
import { attachSessionWorktrees, type WorktreeOrigin } from '../session-worktrees';
import { makeTestRepo, type TestRepo } from '../test-repo';
import type { WorktreeOutcome } from '../worktrees';
import { enterWorktreeTool, exitWorktreeTool } from '.';
import { runTool } from './test-support';

const repos: TestRepo[] = [];
afterEach(() => {
  for (const made of repos.splice(0)) rmSync(made.root, { recursive: true, force: true });
});

function session() {
  const repo = makeTestRepo();
  repos.push(repo);
  const services = new SessionServices({ env: repo.env, gitConfig: new GitConfigSafety({ env: repo.env }) });
  const reports: Array<{ outcome: WorktreeOutcome; origin: WorktreeOrigin }> = [];
  attachSessionWorktrees(services, repo.env, (outcome, origin) => reports.push({ outcome, origin }));
  const context = makeTestContext({ cwd: repo.work, env: repo.env, services });
  context.projectRoot = repo.work;
  return { repo, services, context, reports };
}

describe('EnterWorktree and ExitWorktree', () => {
  it('move the loop into a new worktree and back; an unchanged one is removed', async () => {
    const { repo, context } = session();
    const entered = await runTool(enterWorktreeTool, { name: 'try-it' }, context);
    const path = join(repo.work, '.yoke/worktrees/try-it');
    expect(entered.data).toMatchObject({ worktreePath: path, worktreeBranch: 'worktree-try-it' });
    expect(entered.context.cwd).toBe(path);
    expect(entered.context.projectRoot).toBe(path);
    const left = await runTool(exitWorktreeTool, { action: 'remove' }, entered.context);
    expect(left.context.cwd).toBe(repo.work);
    expect(left.context.projectRoot).toBe(repo.work);
    expect(left.data).toMatchObject({ action: 'remove', originalCwd: repo.work, worktreePath: path });
    expect(existsSync(path)).toBe(false);
  });

  it('refuse to remove a worktree with work in it unless told to discard, which always asks', async () => {
    const { context } = session();
    const entered = await runTool(enterWorktreeTool, { name: 'dirty' }, context);
    writeFileSync(join(entered.context.cwd, 'draft.md'), 'draft\n');
    const refused = exitWorktreeTool.call({ action: 'remove' }, entered.context, () => {});
    await expect(refused).rejects.toBeInstanceOf(ToolError);
    await expect(refused).rejects.toThrow(/1 uncommitted file \(draft.md\), so it was not removed/);
    expect(readFileSync(join(entered.context.cwd, 'draft.md'), 'utf8')).toBe('draft\n');

    await expect(
      exitWorktreeTool.checkPermissions({ action: 'remove', discard_changes: true }, entered.context),
    ).resolves.toMatchObject({ behavior: 'ask', message: expect.stringContaining('draft.md') });
    expect(exitWorktreeTool.isDestructive({ action: 'remove', discard_changes: true })).toBe(true);
    const discarded = await runTool(
      exitWorktreeTool,
      { action: 'remove', discard_changes: true },
      entered.context,
    );
    expect(discarded.data).toMatchObject({ discardedFiles: 1, discardedCommits: 0 });
    expect(existsSync(entered.context.cwd)).toBe(false);
  });

  it('keep leaves the worktree for review; entering it again by path works', async () => {
    const { context } = session();
    const entered = await runTool(enterWorktreeTool, { name: 'review' }, context);
    writeFileSync(join(entered.context.cwd, 'x.ts'), 'x\n');
    const kept = await runTool(exitWorktreeTool, { action: 'keep' }, entered.context);
    expect(kept.data.message).toContain('stays at');
    const again = await runTool(enterWorktreeTool, { path: entered.context.cwd }, kept.context);
    expect(again.context.cwd).toBe(entered.context.cwd);
    expect(again.data.message).toMatch(/^Entered the worktree/);
  });

  it('finish a worktree still entered when the session ends, by the rule', async () => {
    const { services, context, reports } = session();
    const entered = await runTool(enterWorktreeTool, { name: 'left-open' }, context);
    writeFileSync(join(entered.context.cwd, 'wip.txt'), 'wip\n');
    await services.dispose();
    expect(reports).toEqual([
      {
        origin: 'tool',
        outcome: expect.objectContaining({ kind: 'kept', reason: '1 uncommitted file (wip.txt)' }),
      },
    ]);
    expect(readFileSync(join(entered.context.cwd, 'wip.txt'), 'utf8')).toBe('wip\n');
  });

  it('explain bad input: both name and path, a bad name, a path that is no worktree, a second enter', async () => {
    const { repo, context } = session();
    await expect(enterWorktreeTool.validateInput({ name: 'a', path: '/x' }, context)).resolves.toMatchObject({
      ok: false,
      message: expect.stringContaining('not both'),
    });
    await expect(enterWorktreeTool.validateInput({ name: '../escape' }, context)).resolves.toMatchObject({
      ok: false,
      message: expect.stringContaining("starts with '.'"),
    });
    await expect(enterWorktreeTool.call({ path: join(repo.work, 'src') }, context, () => {})).rejects.toThrow(
      /is not a worktree of this repository/,
    );
    await expect(enterWorktreeTool.call({ path: repo.work }, context, () => {})).rejects.toThrow(
      /main working copy/,
    );
    const entered = await runTool(enterWorktreeTool, {}, context);
    expect(entered.data.worktreeBranch).toMatch(/^worktree-session-[0-9a-f]{8}$/);
    await expect(enterWorktreeTool.call({}, entered.context, () => {})).rejects.toThrow(/Already working in/);
    await expect(exitWorktreeTool.call({ action: 'keep' }, context, () => {})).resolves.toBeDefined();
    await expect(exitWorktreeTool.call({ action: 'keep' }, context, () => {})).rejects.toThrow(
      'No worktree was entered',
    );
  });

  it('refuse a repository whose git configuration would run a program on checkout', async () => {
    const { repo, context } = session();
    const marker = join(repo.root, 'filter-ran');
    repo.git(repo.work, 'config', 'filter.planted.smudge', `sh -c 'touch ${marker}; cat'`);
    writeFileSync(join(repo.work, '.gitattributes'), '*.ts filter=planted\n');
    repo.git(repo.work, 'add', '.gitattributes');
    repo.git(repo.work, 'commit', '-qm', 'attributes');
    // Calibration: a checkout into a new worktree runs the smudge filter.
    repo.git(repo.work, 'worktree', 'add', '-q', '-b', 'calibrate', join(repo.root, 'calibrate'));
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    const verdict = await enterWorktreeTool.checkPermissions({ name: 'x' }, context);
    expect(verdict).toMatchObject({
      behavior: 'deny',
      message: expect.stringContaining('filter.planted.smudge'),
    });
    // A clean repository: the tool allows its own call.
    const clean = session();
    await expect(enterWorktreeTool.checkPermissions({ name: 'x' }, clean.context)).resolves.toEqual({
      behavior: 'allow',
    });
  });

  it('refuse to enter an existing worktree whose own configuration would run a program', async () => {
    const { repo, context } = session();
    const marker = join(repo.root, 'monitor-ran');
    const other = join(repo.root, 'other');
    repo.git(repo.work, 'worktree', 'add', '-q', '-b', 'other', other);
    repo.git(repo.work, 'config', 'extensions.worktreeConfig', 'true');
    repo.git(other, 'config', '--worktree', 'core.fsmonitor', `touch ${marker}; false`);
    // Calibration: git status in that worktree (ExitWorktree's check of its changes) runs it.
    repo.git(other, 'status', '--porcelain');
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    await expect(enterWorktreeTool.checkPermissions({ path: other }, context)).resolves.toMatchObject({
      behavior: 'deny',
      message: expect.stringContaining('core.fsmonitor'),
    });
    // Control: the main working copy's own configuration is harmless, so a new worktree is allowed.
    await expect(enterWorktreeTool.checkPermissions({ name: 'x' }, context)).resolves.toEqual({
      behavior: 'allow',
    });
  });
});
