import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gatherGitStatus } from './environment';

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
    const facts = await gatherGitStatus(repo());
    expect(facts.isGitRepo).toBe(true);
    expect(facts.gitStatus).toContain('Current branch: trunk');
    expect(facts.gitStatus).toContain('?? b.txt');
    expect(facts.gitStatus).toContain('first commit');
  });

  it('says a plain folder is not a repository', async () => {
    expect(await gatherGitStatus(mkdtempSync(join(tmpdir(), 'yoke-nogit-')))).toEqual({ isGitRepo: false });
  });
});
