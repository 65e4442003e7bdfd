/** The branch read from HEAD, checked against what git itself says, in real repositories. */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentGitBranch } from './git-branch';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

async function repository(): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'yoke-branch-')));
  git(dir, 'init', '-q', '-b', 'topic/login');
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'first');
  return dir;
}

describe('currentGitBranch', () => {
  it('names the branch checked out, from a subfolder too, as git does', async () => {
    const repo = await repository();
    await mkdir(join(repo, 'src'));
    expect(currentGitBranch(join(repo, 'src'))).toBe('topic/login');
    expect(currentGitBranch(repo)).toBe(git(repo, 'branch', '--show-current'));
  });

  it("names a worktree's own branch", async () => {
    const repo = await repository();
    const tree = join(repo, '..', `${repo.split('/').pop()}-tree`);
    git(repo, 'worktree', 'add', '-q', '-b', 'fix', tree);
    expect(currentGitBranch(tree)).toBe('fix');
  });

  it('has none on a detached HEAD or outside a repository', async () => {
    const repo = await repository();
    git(repo, 'checkout', '-q', '--detach');
    expect(currentGitBranch(repo)).toBeUndefined();
    expect(currentGitBranch(await mkdtemp(join(tmpdir(), 'yoke-no-repo-')))).toBeUndefined();
  });
});
