import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionServices } from '../../tools/session-services';
import { createWorktreeHookBed, type WorktreeHookBed } from './hook-test-bed';
import { sessionWorktree, WorktreeFlagError } from './session-start';
import { FLAG_WORKTREE, sessionWorktreesOf } from './session-worktrees';
import { makeTestRepo, type TestRepo } from './test-repo';

const beds: WorktreeHookBed[] = [];
const repos: TestRepo[] = [];
afterEach(async () => {
  for (const bed of beds.splice(0)) await bed.cleanup();
  for (const repo of repos.splice(0)) rmSync(repo.root, { recursive: true, force: true });
});

async function bed() {
  const made = await createWorktreeHookBed();
  beds.push(made);
  // A folder no version control knows: the hook is all there is.
  const start = join(made.dir, 'plain-project');
  mkdirSync(start);
  const warnings: string[] = [];
  const log = { warn: (text: string) => warnings.push(text), debug: () => {} };
  return { ...made, start, warnings, log };
}

describe('--worktree with WorktreeCreate hooks', () => {
  it('lets the hook make the worktree in a folder that is no git repository, and ends it through WorktreeRemove', async () => {
    const { start, log, warnings, trees, create, remove, settings, runner, calls } = await bed();
    const hooks = runner(settings(create.folder, remove));
    const begun = await sessionWorktree('feature/x', start, {}, log, async () => ({ hooks }));
    const path = join(trees, 'feature/x');
    expect(begun.cwd).toBe(path);
    expect(begun.made).toMatchObject({ madeBy: 'hook', worktree: { path, name: 'feature/x' } });
    expect(calls()).toEqual([
      expect.objectContaining({ hook_event_name: 'WorktreeCreate', name: 'feature/x' }),
    ]);

    const services = new SessionServices({ env: {} });
    begun.attach(services);
    expect(sessionWorktreesOf(services)?.current(FLAG_WORKTREE)?.originalCwd).toBe(start);
    await services.dispose();
    expect(calls()[1]).toMatchObject({ hook_event_name: 'WorktreeRemove', worktree_path: path });
    expect(existsSync(path)).toBe(false);
    expect(warnings).toEqual([`Removed the worktree ${path} through the WorktreeRemove hook.`]);
  });

  it('keeps a hook-made worktree when no WorktreeRemove hook is configured, and says why', async () => {
    const { start, log, warnings, trees, create, settings, runner } = await bed();
    const begun = await sessionWorktree(true, start, {}, log, async () => ({
      hooks: runner(settings(create.folder)),
    }));
    expect(begun.cwd.startsWith(join(trees, 'session-'))).toBe(true);
    const services = new SessionServices({ env: {} });
    begun.attach(services);
    await services.dispose();
    expect(existsSync(begun.cwd)).toBe(true);
    expect(warnings).toEqual([
      `Kept the worktree ${begun.cwd}: a WorktreeCreate hook made it, and no WorktreeRemove hook is configured.`,
    ]);
  });

  it('a hook-made git worktree with work in it is kept and never handed to the remover', async () => {
    const { log, warnings, create, remove, settings, runner, calls } = await bed();
    const repo = makeTestRepo();
    repos.push(repo);
    const hooks = runner(settings(await create.gitWorktree(repo.work), remove));
    const begun = await sessionWorktree('wip', repo.work, repo.env, log, async () => ({ hooks }));
    writeFileSync(join(begun.cwd, 'draft.md'), 'draft\n');
    const services = new SessionServices({ env: repo.env });
    begun.attach(services);
    await services.dispose();
    expect(calls().map((call) => call.hook_event_name)).toEqual(['WorktreeCreate']);
    expect(warnings).toEqual([`Kept the worktree ${begun.cwd}: 1 uncommitted file (draft.md).`]);
  });

  it('stops the start with one line when the hook fails or answers no folder; git makes none instead', async () => {
    const { start, log, create, settings, runner } = await bed();
    const repo = makeTestRepo();
    repos.push(repo);
    const cases: [string, string, RegExp][] = [
      [
        create.failing,
        start,
        /^--worktree: no worktree was made: the WorktreeCreate hook failed: .*no space left on the build volume/,
      ],
      [
        create.garbage,
        repo.work,
        /^--worktree: no worktree was made: the WorktreeCreate hook gave "worktree ready: see above", not an absolute path\.$/,
      ],
    ];
    for (const [command, cwd, line] of cases) {
      const started = sessionWorktree('x', cwd, repo.env, log, async () => ({
        hooks: runner(settings(command)),
      }));
      await expect(started).rejects.toBeInstanceOf(WorktreeFlagError);
      await expect(started).rejects.toThrow(line);
    }
    expect(repo.git(repo.work, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
  });

  it('without hooks git makes it, with the starting folder’s worktree settings; a plain folder is refused', async () => {
    const { start, log } = await bed();
    const repo = makeTestRepo();
    repos.push(repo);
    repo.write('docs/guide.md', 'guide\n');
    repo.git(repo.work, 'add', '.');
    repo.git(repo.work, 'commit', '-qm', 'docs');
    const begun = await sessionWorktree('sparse', repo.work, repo.env, log, async () => ({
      settings: { sparsePaths: ['src'] },
    }));
    expect(begun.made?.madeBy).toBe('git');
    expect(existsSync(join(begun.cwd, 'src/a.ts'))).toBe(true);
    expect(existsSync(join(begun.cwd, 'docs'))).toBe(false);
    await expect(sessionWorktree('x', start, repo.env, log)).rejects.toThrow(
      /^--worktree: .* is not in a git repository, so no worktree can be made/,
    );
  });

  it('refuses to reopen a kept worktree whose own git configuration would run a program', async () => {
    const repo = makeTestRepo();
    repos.push(repo);
    const log = { warn: () => {}, debug: () => {} };
    const first = await sessionWorktree('kept', repo.work, repo.env, log);
    const marker = join(repo.root, 'monitor-ran');
    repo.git(repo.work, 'config', 'extensions.worktreeConfig', 'true');
    repo.git(first.cwd, 'config', '--worktree', 'core.fsmonitor', `touch ${marker}; false`);
    // Calibration: git status there (the prompt's facts, the check of its changes) runs it.
    repo.git(first.cwd, 'status', '--porcelain');
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    await expect(sessionWorktree('kept', repo.work, repo.env, log)).rejects.toThrow(
      /^--worktree: the worktree .*kept is not reopened: git there would run what its configuration names \(.*core\.fsmonitor/,
    );
    expect(existsSync(marker)).toBe(false);
    // Control: without the monitor it is reopened.
    repo.git(first.cwd, 'config', '--worktree', '--unset', 'core.fsmonitor');
    await expect(sessionWorktree('kept', repo.work, repo.env, log)).resolves.toMatchObject({
      cwd: first.cwd,
    });
  });

  it('reads nothing of the starting folder without --worktree', async () => {
    const { start, log } = await bed();
    let read = false;
    const begun = await sessionWorktree(undefined, start, {}, log, async () => {
      read = true;
      return {};
    });
    expect(begun.cwd).toBe(start);
    expect(read).toBe(false);
  });
});
