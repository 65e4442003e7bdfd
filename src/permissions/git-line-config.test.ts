/**
 * Reading the settings and the branch a git line would use must run nothing a planted repository
 * names: a monitor, a pager, a hook in `.git/hooks` or in `core.hooksPath`. Each plant is live (the
 * calibration: `git status` starts the monitor, `git commit` the hook), and the read leaves no
 * marker.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GitLineConfig } from './git-line-config';
import { makePlantedRepo } from './git-test-repos';

const hasGit = spawnSync('git', ['--version']).status === 0;
const base = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-git-line-config-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe.skipIf(!hasGit)('GitLineConfig', () => {
  it('reads a planted repository without running what it names', async () => {
    const repo = makePlantedRepo(join(base, 'planted'));
    const hook = repo.script('hooks/any');
    for (const name of ['pre-commit', 'post-index-change', 'post-checkout'])
      repo.script(`.git/hooks/${name}`);
    repo.git('config', 'core.fsmonitor', hook);
    repo.git('config', 'core.pager', repo.touch);
    for (const command of ['config', 'symbolic-ref']) repo.git('config', `pager.${command}`, repo.touch);
    repo.git('config', 'remote.origin.mirror', 'true');
    repo.git('config', 'branch.main.pushRemote', 'origin');

    const line = new GitLineConfig(repo.env, 10_000);
    const found = await line.read(repo.work, []);
    if ('unknown' in found) throw new Error(found.unknown);
    expect(found.settings.map((s) => s.key)).toEqual(['remote.origin.mirror', 'branch.main.pushremote']);
    expect(await found.head()).toEqual({ branch: 'main' });
    expect(existsSync(repo.marker), 'a planted program ran').toBe(false);

    // The plants are live: git status starts the monitor, a commit runs the hooks.
    repo.git('status', '--short');
    expect(existsSync(repo.marker)).toBe(true);
    rmSync(repo.marker);
    repo.git('config', '--unset', 'core.fsmonitor');
    const commit = spawnSync('git', ['commit', '-qam', 'x'], {
      cwd: repo.work,
      env: repo.env,
      encoding: 'utf8',
    });
    expect(commit.stderr).toBe('');
    expect(existsSync(repo.marker)).toBe(true);
  });

  it('says when HEAD is detached', async () => {
    const repo = makePlantedRepo(join(base, 'detached'));
    repo.git('checkout', '-q', '--detach');
    const found = await new GitLineConfig(repo.env, 10_000).read(repo.work, []);
    if ('unknown' in found) throw new Error(found.unknown);
    expect(await found.head()).toEqual({ branch: undefined });
  });
});
