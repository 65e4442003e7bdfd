/**
 * The Bash tool runs commands it proves read-only with git's repository hooks, monitor and pager
 * switched off (a second line behind the permission check), and everything else untouched: a
 * `git commit` still runs the project's hooks.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NEUTRAL_GIT_CONFIG, neutralGitEnv, withGitConfig } from '../../../permissions/git-neutral-env';
import { makePlantedRepo, type PlantedRepo } from '../../../permissions/git-test-repos';
import { callTool, makeTestContext } from '../shared/test-context';
import { type BashOutput, bashTool } from './index';

const hasGit = spawnSync('git', ['--version']).status === 0;
const scratch = mkdtempSync(join(tmpdir(), 'yoke-gitneutral-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let count = 0;
const repo = () => makePlantedRepo(join(scratch, `r${count++}`));

function run(r: PlantedRepo, command: string, cwd = r.work, env: Record<string, string> = r.env) {
  rmSync(r.marker, { force: true });
  return callTool<BashOutput>(bashTool, { command }, makeTestContext({ cwd, projectRoot: r.work, env }));
}

describe('withGitConfig', () => {
  it('adds settings after those the environment already carries', () => {
    const env = withGitConfig(
      { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.abbrev', GIT_CONFIG_VALUE_0: '12' },
      [['core.pager', 'cat']],
    );
    expect(env).toMatchObject({
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'core.abbrev',
      GIT_CONFIG_KEY_1: 'core.pager',
      GIT_CONFIG_VALUE_1: 'cat',
    });
  });

  it('neutralizes the monitor, hooks, bare discovery, pager and optional locks', () => {
    const env = neutralGitEnv({});
    expect(env.GIT_CONFIG_COUNT).toBe(String(NEUTRAL_GIT_CONFIG.length));
    expect(env).toMatchObject({
      GIT_OPTIONAL_LOCKS: '0',
      GIT_PAGER: 'cat',
      GIT_CONFIG_KEY_0: 'core.fsmonitor',
    });
  });
});

describe.skipIf(!hasGit)('Bash tool: the neutral git environment', () => {
  it('runs a read-only git status without the planted monitor, and still shows the status', async () => {
    const r = repo();
    r.git('config', 'core.fsmonitor', `${r.touch}; false`);
    const result = await run(r, 'git status --short');
    expect(result.data.stdout).toContain('M f.txt');
    expect(existsSync(r.marker)).toBe(false);
  });

  it('runs a read-only git status without the post-index-change hook', async () => {
    const r = repo();
    r.script('.git/hooks/post-index-change');
    await run(r, 'git status');
    expect(existsSync(r.marker)).toBe(false);
  });

  it("keeps the user's own command-line settings", async () => {
    const r = repo();
    const env = {
      ...r.env,
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.abbrev',
      GIT_CONFIG_VALUE_0: '12',
    };
    const result = await run(r, 'git log -1 --format=%h', r.work, env);
    expect(result.data.stdout).toHaveLength(12);
  });

  it('refuses an embedded bare repository discovered from inside it', async () => {
    const r = repo();
    r.git('clone', '-q', '--bare', '.', 'vendor/evil.git');
    const result = await run(r, 'git log -1', join(r.work, 'vendor/evil.git'));
    expect(result.isError).toBe(true);
    expect(result.data.stdout).toContain('safe.bareRepository');
  });

  it('leaves commands that are not read-only alone: git commit runs the project hooks', async () => {
    const r = repo();
    r.script('.husky/_/pre-commit');
    r.git('config', 'core.hooksPath', '.husky/_');
    await run(r, 'git commit -qam change');
    expect(existsSync(r.marker)).toBe(true);
  });
});
