import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTestRepo } from './test-repo';
import type { WorktreeName } from './worktree-name';
import { createWorktree, finishWorktree } from './worktrees';

const name = (text: string) => text as WorktreeName;

describe('worktree settings', () => {
  it('sparsePaths: only the listed folders are checked out', async () => {
    const repo = makeTestRepo();
    repo.write('docs/guide.md', 'guide\n');
    repo.write('big/data.txt', 'data\n');
    repo.git(repo.work, 'add', '.');
    repo.git(repo.work, 'commit', '-qm', 'more');
    const worktree = await createWorktree({
      cwd: repo.work,
      name: name('sparse'),
      env: repo.env,
      settings: { sparsePaths: ['docs'] },
    });
    expect(readFileSync(join(worktree.path, 'docs', 'guide.md'), 'utf8')).toBe('guide\n');
    expect(existsSync(join(worktree.path, 'big'))).toBe(false);
    // Unchanged: the folders left out are not "deleted work", so the worktree goes.
    expect((await finishWorktree(worktree, repo.env)).kind).toBe('removed');
  });

  it("symlinkDirectories: the main copy's folder is linked in, and removing the worktree leaves it whole", async () => {
    const repo = makeTestRepo();
    writeFileSync(join(repo.work, '.gitignore'), 'node_modules\n');
    repo.git(repo.work, 'add', '.gitignore');
    repo.git(repo.work, 'commit', '-qm', 'ignore');
    mkdirSync(join(repo.work, 'node_modules', 'lib'), { recursive: true });
    writeFileSync(join(repo.work, 'node_modules', 'lib', 'index.js'), 'module.exports = 1;\n');
    const worktree = await createWorktree({
      cwd: repo.work,
      name: name('linked'),
      env: repo.env,
      settings: { symlinkDirectories: ['node_modules', 'not-there'] },
    });
    const link = join(worktree.path, 'node_modules');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(join(repo.work, 'node_modules'));
    expect(existsSync(join(worktree.path, 'not-there'))).toBe(false);
    expect((await finishWorktree(worktree, repo.env, { discard: true })).kind).toBe('removed');
    expect(readFileSync(join(repo.work, 'node_modules', 'lib', 'index.js'), 'utf8')).toBe(
      'module.exports = 1;\n',
    );
  });

  it('symlinkDirectories: a name that leaves the repository is refused, and no worktree is left behind', async () => {
    const repo = makeTestRepo();
    const outside = join(repo.root, 'outside');
    mkdirSync(outside);
    // Calibration: a planted link in the repository really leads a plain `ln -s` copy outside.
    symlinkSync(outside, join(repo.work, 'cache'));
    execFileSync('sh', [
      '-c',
      `ln -s ${join(repo.work, 'cache')} ${join(repo.root, 'copy')} && touch ${join(repo.root, 'copy', 'x')}`,
    ]);
    expect(existsSync(join(outside, 'x'))).toBe(true);

    for (const folders of [['../outside'], ['cache']]) {
      await expect(
        createWorktree({
          cwd: repo.work,
          name: name('bad'),
          env: repo.env,
          settings: { symlinkDirectories: folders },
        }),
      ).rejects.toThrow(/worktree\.symlinkDirectories/);
      expect(existsSync(join(repo.work, '.yoke', 'worktrees', 'bad'))).toBe(false);
    }
  });

  it('baseRef fresh starts from the remote default branch; head from the current HEAD', async () => {
    const upstream = makeTestRepo('yoke-wt-up-');
    upstream.write('upstream.txt', 'from upstream\n');
    upstream.git(upstream.work, 'add', '.');
    upstream.git(upstream.work, 'commit', '-qm', 'upstream');
    const repo = makeTestRepo();
    repo.git(repo.work, 'remote', 'add', 'origin', upstream.work);
    repo.git(repo.work, 'fetch', '-q', 'origin');
    repo.git(repo.work, 'remote', 'set-head', 'origin', 'main');
    const remote = repo.git(repo.work, 'rev-parse', 'origin/main').trim();
    const head = repo.git(repo.work, 'rev-parse', 'HEAD').trim();
    expect(remote).not.toBe(head);
    const fresh = await createWorktree({
      cwd: repo.work,
      name: name('fresh'),
      env: repo.env,
      settings: { baseRef: 'fresh' },
    });
    const local = await createWorktree({
      cwd: repo.work,
      name: name('local'),
      env: repo.env,
      settings: { baseRef: 'head' },
    });
    expect(fresh.baseCommit).toBe(remote);
    expect(local.baseCommit).toBe(head);
  });
});
