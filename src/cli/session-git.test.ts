import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSessionGit } from './session-git';

function repo(branch: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-session-git-'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
  git('init', '-q', '-b', branch);
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  git('add', 'a.txt');
  git('commit', '-q', '-m', 'first');
  return dir;
}

describe('startSessionGit', () => {
  it('keeps the early start when the settings change no variable', async () => {
    const cwd = repo('early');
    const env = { PATH: process.env.PATH, HOME: process.env.HOME };
    const started = startSessionGit(cwd, env);
    const settled = started.settle({ ...env });
    expect(started.settle({ ...env })).toBe(settled);
    expect((await settled.facts).gitStatus).toContain('Current branch: early');
  });

  it("starts again in the session's environment when the settings point git elsewhere", async () => {
    const cwd = repo('project');
    const other = repo('elsewhere');
    const env = { PATH: process.env.PATH, HOME: process.env.HOME };
    const started = startSessionGit(cwd, env);
    const sessionEnv = { ...env, GIT_DIR: join(other, '.git'), GIT_WORK_TREE: other };
    const settled = started.settle(sessionEnv);
    expect((await settled.facts).gitStatus).toContain('Current branch: elsewhere');
    // The session's checker judges the repository the session's git uses.
    const marker = join(other, 'M');
    execFileSync('git', ['config', 'core.fsmonitor', `touch '${marker}'; false`], { cwd: other });
    expect(await settled.gitConfig.check(cwd)).toMatchObject({ harmless: false });
  });
});
