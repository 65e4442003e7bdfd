/**
 * The configuration check on repositories a user really has — fresh, cloned, with husky hooks, a
 * local LFS install, an absorbed submodule — which must pass, the settings that must not, and the
 * per-directory cache: answered without git while nothing that decides it changed, probed again
 * as soon as something did.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GitConfigSafety } from './git-config-safety';
import { makePlantedRepo, type PlantedRepo } from './git-test-repos';

const hasGit = spawnSync('git', ['--version']).status === 0;
const scratch = mkdtempSync(join(tmpdir(), 'yoke-gitcfg-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let count = 0;
const repo = (): PlantedRepo => makePlantedRepo(join(scratch, `r${count++}`));
/** No settle margin: these tests change files right before checking on purpose. */
const safety = (r: PlantedRepo) => new GitConfigSafety({ env: r.env, changeSlackMs: 0 });

async function reason(r: PlantedRepo, directory = r.work): Promise<string | undefined> {
  const verdict = await safety(r).check(directory);
  return verdict.harmless ? undefined : verdict.reason;
}

describe.skipIf(!hasGit)('GitConfigSafety: what passes', () => {
  it('passes a fresh repository, and a folder in no repository at all', async () => {
    const r = repo();
    expect(await reason(r)).toBeUndefined();
    const outside = join(scratch, 'plain-folder');
    mkdirSync(outside);
    expect((await new GitConfigSafety({ env: r.env }).check(outside)).harmless).toBe(true);
  });

  it('passes a clone (remote and branch settings)', async () => {
    const r = repo();
    const clone = join(scratch, `clone-${count++}`);
    execFileSync('git', ['clone', '-q', r.work, clone], { env: r.env });
    expect((await new GitConfigSafety({ env: r.env }).check(clone)).harmless).toBe(true);
  });

  it('passes husky-style hooks that read-only commands never run', async () => {
    const r = repo();
    r.script('.husky/_/pre-commit');
    r.git('config', 'core.hooksPath', '.husky/_');
    expect(await reason(r)).toBeUndefined();
  });

  it('passes what `git lfs install --local` writes, and nothing else under filter.lfs', async () => {
    const r = repo();
    r.git('config', 'filter.lfs.clean', 'git-lfs clean -- %f');
    r.git('config', 'filter.lfs.smudge', 'git-lfs smudge -- %f');
    r.git('config', 'filter.lfs.process', 'git-lfs filter-process');
    r.git('config', 'filter.lfs.required', 'true');
    expect(await reason(r)).toBeUndefined();
    r.git('config', 'filter.lfs.clean', 'git-lfs clean -- %f; touch x');
    expect(await reason(r)).toMatch(/`filter\.lfs\.clean`/);
  });

  it('passes an absorbed submodule, whose core.worktree points back at its own folder', async () => {
    const r = repo();
    const other = repo();
    r.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', other.work, 'lib');
    expect(await reason(r)).toBeUndefined();
  });

  it("trusts the user's own settings: a global pager, a global hooks folder", async () => {
    const r = repo();
    const hooks = join(scratch, `user-hooks-${count++}`);
    mkdirSync(hooks);
    writeFileSync(join(hooks, 'post-index-change'), '#!/bin/sh\n');
    writeFileSync(
      join(r.env.HOME as string, '.gitconfig'),
      `[core]\n\tpager = less\n\thooksPath = ${hooks}\n`,
    );
    expect(await reason(r)).toBeUndefined();
  });
});

describe.skipIf(!hasGit)('GitConfigSafety: what is refused', () => {
  it('names the key and the file for a setting that is not known to be harmless', async () => {
    const r = repo();
    r.git('config', 'core.sshCommand', 'ssh -i key');
    expect(await reason(r)).toBe(
      'the repository sets `core.sshcommand` in .git/config, a setting not known to be harmless (such settings can make git run programs)',
    );
  });

  it('refuses a core.worktree that points git at another tree', async () => {
    const r = repo();
    r.git('config', 'core.worktree', scratch);
    expect(await reason(r)).toMatch(/`core\.worktree`/);
  });

  it('judges a missing folder by the nearest one that exists', async () => {
    const r = repo();
    r.git('config', 'core.fsmonitor', 'x');
    expect(await reason(r, join(r.work, 'not', 'yet'))).toMatch(/`core\.fsmonitor`/);
  });
});

describe.skipIf(!hasGit)('GitConfigSafety: the cache', () => {
  it('answers again without git while nothing changed', async () => {
    const r = repo();
    const check = safety(r);
    await check.check(r.work);
    await check.check(r.work);
    await check.check(join(r.work, '.'));
    expect(check.probes).toBe(1);
  });

  it('probes again when the configuration changes, and sees the new key', async () => {
    const r = repo();
    const check = safety(r);
    expect((await check.check(r.work)).harmless).toBe(true);
    r.git('config', 'core.fsmonitor', 'x');
    expect(await check.check(r.work)).toMatchObject({ harmless: false });
    expect(check.probes).toBe(2);
  });

  it('probes again when a hook appears', async () => {
    const r = repo();
    const check = safety(r);
    expect((await check.check(r.work)).harmless).toBe(true);
    r.script('.git/hooks/post-index-change');
    expect(await check.check(r.work)).toMatchObject({ harmless: false });
  });

  it('sees a repository created below one it already judged', async () => {
    const r = repo();
    const check = safety(r);
    const inner = join(r.work, 'inner');
    mkdirSync(inner);
    expect((await check.check(inner)).harmless).toBe(true);
    execFileSync('git', ['init', '-q', '.'], { cwd: inner, env: r.env });
    execFileSync('git', ['config', 'core.fsmonitor', 'x'], { cwd: inner, env: r.env });
    expect(await check.check(inner)).toMatchObject({ harmless: false });
  });

  it('sees a submodule repository that appears in the index', async () => {
    const r = repo();
    const check = safety(r);
    expect((await check.check(r.work)).harmless).toBe(true);
    r.write('sub/x', 'x\n');
    const sub = (...args: string[]) =>
      execFileSync('git', args, { cwd: join(r.work, 'sub'), env: r.env, encoding: 'utf8' });
    sub('init', '-q', '.');
    sub('config', 'core.fsmonitor', 'x');
    sub('-c', 'user.email=a@b', '-c', 'user.name=n', 'commit', '-q', '--allow-empty', '-m', 's');
    r.git('update-index', '--add', '--cacheinfo', `160000,${sub('rev-parse', 'HEAD').trim()},sub`);
    expect(await check.check(r.work)).toMatchObject({ harmless: false });
  });

  it('does not cache an answer while the files that decide it may still be changing', async () => {
    const r = repo();
    // Every file of the repository changed within the last hour: none of it counts as settled.
    const check = new GitConfigSafety({ env: r.env, changeSlackMs: 3_600_000 });
    await check.check(r.work);
    await check.check(r.work);
    expect(check.probes).toBe(2);
  });
});
