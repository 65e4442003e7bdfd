/**
 * Read-only git through the real pipeline on real repositories: a clean one runs without a prompt,
 * a planted one asks and says which setting is the reason, wherever git would find it — the
 * project's own .git/config, an embedded bare repository git discovers from inside it, one named
 * with `-C`. An allow rule the user wrote for the command still covers it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decideCase } from './corpus-test-support';
import { GitConfigSafety } from './git-config-safety';
import { makePlantedRepo, type PlantedRepo } from './git-test-repos';

const hasGit = spawnSync('git', ['--version']).status === 0;
const scratch = mkdtempSync(join(tmpdir(), 'yoke-gitcorpus-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function decide(repo: PlantedRepo, cmd: string, options: { cwd?: string; allow?: string[] } = {}) {
  const { verdict, question } = await decideCase(
    { cmd, expect: 'allow', allow: options.allow ?? [], source: 'userSettings' },
    {
      projectRoot: repo.work,
      cwd: options.cwd ?? repo.work,
      gitConfig: new GitConfigSafety({ env: repo.env }),
    },
  );
  return { verdict, message: question ?? '' };
}

let count = 0;
const repo = () => makePlantedRepo(join(scratch, `r${count++}`));

describe.skipIf(!hasGit)('read-only git on real repositories', () => {
  it('runs git status, log and diff in a clean repository without asking', async () => {
    const r = repo();
    for (const command of [
      'git status',
      'git log --oneline | head -3',
      'git diff',
      'git status && git log -1',
    ])
      expect((await decide(r, command)).verdict, command).toBe('allow');
  });

  it("asks for git status when the project's own .git/config sets core.fsmonitor, and says why", async () => {
    const r = repo();
    r.git('config', 'core.fsmonitor', `${r.touch}; false`);
    const outcome = await decide(r, 'git status');
    expect(outcome.verdict).toBe('ask');
    expect(outcome.message).toContain('git is not read-only here: the repository sets `core.fsmonitor`');
  });

  it('asks for every git command of a line on a planted repository, wrapped ones too', async () => {
    const r = repo();
    r.git('config', 'diff.external', `${r.touch}; true`);
    for (const command of ['ls && git diff', 'timeout 5 git diff', 'git -C . diff'])
      expect((await decide(r, command)).verdict, command).toBe('ask');
  });

  it('asks inside an embedded bare repository, and for git -C pointed at it', async () => {
    const r = repo();
    r.git('clone', '-q', '--bare', '.', 'vendor/evil.git');
    const bare = join(r.work, 'vendor/evil.git');
    spawnSync('git', ['config', 'core.pager', `${r.touch}; cat`], { cwd: bare, env: r.env });
    expect((await decide(r, 'git log', { cwd: bare })).verdict).toBe('ask');
    expect((await decide(r, 'git -C vendor/evil.git log')).verdict).toBe('ask');
    expect((await decide(r, 'git log')).verdict).toBe('allow');
  });

  it('asks when git is pointed at another repository with --git-dir', async () => {
    const r = repo();
    const outcome = await decide(r, 'git --git-dir=vendor/evil.git log');
    expect(outcome.verdict).toBe('ask');
    // The global-option table refuses it before the repository check is reached.
    expect(outcome.message).toContain('git --git-dir runs git on another repository or work tree');
  });

  it("lets the user's own allow rule cover the command on such a repository", async () => {
    const r = repo();
    r.git('config', 'core.fsmonitor', `${r.touch}; false`);
    expect((await decide(r, 'git status', { allow: ['Bash(git status:*)'] })).verdict).toBe('allow');
  });
});
