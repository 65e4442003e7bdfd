import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitConfigSafety } from '../permissions/git-config-safety';
import { gatherGitStatus, mayBeInGitRepo } from './environment';

/** How a session with this environment asks git. */
function sessionGit(env: Record<string, string | undefined> = process.env) {
  return { env, gitConfig: new GitConfigSafety({ env }) };
}

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-git-'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
  git('init', '-q', '-b', 'trunk');
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  git('add', 'a.txt');
  git('commit', '-q', '-m', 'first commit');
  writeFileSync(join(dir, 'b.txt'), 'b\n');
  return dir;
}

describe('gatherGitStatus', () => {
  it('reports the branch, the changed files and recent commits of a repository', async () => {
    const facts = await gatherGitStatus(repo(), sessionGit());
    expect(facts.isGitRepo).toBe(true);
    expect(facts.gitStatus).toContain('Current branch: trunk');
    expect(facts.gitStatus).toContain('?? b.txt');
    expect(facts.gitStatus).toContain('first commit');
  });

  it('never runs what a planted repository configures, and says why the status is missing', async () => {
    const dir = repo();
    const marker = join(dir, 'M');
    execFileSync('git', ['config', 'core.fsmonitor', `touch '${marker}'; false`], { cwd: dir });
    const facts = await gatherGitStatus(dir, sessionGit());
    expect(facts.isGitRepo).toBe(true);
    expect(facts.gitStatus).toMatch(/^\(not gathered: the repository sets `core\.fsmonitor`/);
    expect(existsSync(marker)).toBe(false);
  });

  it("asks the repository the session's environment names, and judges that one", async () => {
    const plain = mkdtempSync(join(tmpdir(), 'yoke-nogit-'));
    const named = repo();
    const env = { ...process.env, GIT_DIR: join(named, '.git'), GIT_WORK_TREE: named };
    const facts = await gatherGitStatus(plain, sessionGit(env));
    expect(facts.gitStatus).toContain('Current branch: trunk');
    expect(facts.gitStatus).toContain('?? b.txt');
    // The checker runs on the same environment: a planted monitor there is found, and not run.
    const marker = join(named, 'M');
    execFileSync('git', ['config', 'core.fsmonitor', `touch '${marker}'; false`], { cwd: named });
    const planted = await gatherGitStatus(plain, sessionGit(env));
    expect(planted.gitStatus).toMatch(/^\(not gathered: the repository sets `core\.fsmonitor`/);
    expect(existsSync(marker)).toBe(false);
  });

  it('says a plain folder is not a repository', async () => {
    expect(await gatherGitStatus(mkdtempSync(join(tmpdir(), 'yoke-nogit-')), sessionGit())).toEqual({
      isGitRepo: false,
    });
  });
});

describe('mayBeInGitRepo', () => {
  it('finds the repository from a folder deep inside it', () => {
    const deep = join(repo(), 'src', 'lib');
    mkdirSync(deep, { recursive: true });
    expect(mayBeInGitRepo(deep, {})).toBe(true);
  });

  it('finds a linked worktree, whose .git is a file', async () => {
    const main = repo();
    const worktree = join(mkdtempSync(join(tmpdir(), 'yoke-wt-')), 'wt');
    execFileSync('git', ['worktree', 'add', '-q', worktree], { cwd: main, stdio: 'ignore' });
    expect(mayBeInGitRepo(worktree, {})).toBe(true);
    expect((await gatherGitStatus(worktree, sessionGit())).isGitRepo).toBe(true);
  });

  it('says no for a plain folder, unless GIT_DIR points git elsewhere', () => {
    const plain = mkdtempSync(join(tmpdir(), 'yoke-nogit-'));
    expect(mayBeInGitRepo(plain, {})).toBe(false);
    expect(mayBeInGitRepo(plain, { GIT_DIR: join(repo(), '.git') })).toBe(true);
  });
});
