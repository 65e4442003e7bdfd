/**
 * The end of a WorktreeCreate hook's folder: whether it holds work is asked of git only when the
 * folder's git configuration runs nothing. Calibrated: a hook that copies the repository whole
 * (`.git` included) copies a planted clean filter, and the `git status` of the check ran it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HookRunner } from '../../hooks/types';
import { finishHookWorktree } from './hook-worktrees';

const top = mkdtempSync(join(tmpdir(), 'yoke-hook-finish-'));
afterAll(() => rmSync(top, { recursive: true, force: true }));

/** A repository as a copying hook leaves it: one committed file, its stat data stale. */
function copiedRepository(name: string, filter?: string): string {
  const dir = join(top, name);
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: top };
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=a@b.invalid', '-c', 'user.name=n', ...args], { cwd: dir, env });
  execFileSync('git', ['init', '-q', dir], { env });
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  writeFileSync(join(dir, '.gitattributes'), '* filter=planted\n');
  git('add', '.');
  git('commit', '-qm', 'init');
  // Another branch holds the commit, as the branch the copy was made from would.
  git('branch', 'origin-copy');
  if (filter) git('config', 'filter.planted.clean', filter);
  // Same content, new stat data: git status must look inside, through the clean filter.
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  return dir;
}

/** A runner whose WorktreeRemove hook removes the folder, recording that it was asked. */
function remover(removed: string[]): HookRunner {
  return {
    worktreeRemove: async ({ path }: { path: string }) => {
      removed.push(path);
      rmSync(path, { recursive: true, force: true });
      return { handled: true };
    },
  } as unknown as HookRunner;
}

describe('finishing a hook-made worktree', () => {
  it('keeps a folder whose git configuration would run a program, without running it', async () => {
    const marker = join(top, 'filter-ran');
    const dir = copiedRepository('planted', `touch ${marker}; cat`);
    // Calibration: plain git status runs the planted filter there.
    execFileSync('git', ['status', '--porcelain'], {
      cwd: dir,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
    });
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    const removed: string[] = [];
    const outcome = await finishHookWorktree(
      dir,
      remover(removed),
      process.env,
      new AbortController().signal,
    );
    expect(existsSync(marker)).toBe(false);
    expect(outcome).toMatchObject({ kind: 'kept', path: dir });
    expect(outcome.kind === 'kept' && outcome.reason).toMatch(/git configuration .*filter\.planted/);
    expect(removed).toEqual([]);
  });

  it('control: an unchanged folder with a harmless configuration goes to the remover', async () => {
    const dir = copiedRepository('plain');
    const removed: string[] = [];
    const outcome = await finishHookWorktree(
      dir,
      remover(removed),
      process.env,
      new AbortController().signal,
    );
    expect(outcome).toMatchObject({ kind: 'removed', path: dir });
    expect(removed).toEqual([dir]);
  });
});
