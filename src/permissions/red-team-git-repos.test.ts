/**
 * Red-team pass on git run against planted repositories: a `.git` file pointing at another
 * repository, an embedded bare repository, an `include.path`, a `core.worktree` elsewhere, a
 * `commondir` into another repository, `GIT_DIR` set or exported, and every way of moving git
 * there (`cd`, `pushd`, `env -C`, `-C`, `--git-dir`, `find -execdir`, `xargs`). Each planted
 * setting names a program; every row asks. The project's own clean repository does not.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideCase } from './corpus-test-support';
import { GitConfigSafety } from './git-config-safety';

const hasGit = spawnSync('git', ['--version']).status === 0;
let top: string;
let proj: string;

beforeAll(() => {
  if (!hasGit) return;
  top = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-red-team-git-')));
  proj = join(top, 'proj');
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'ignore' });
  const evil = join(top, 'evil');
  mkdirSync(evil);
  git(evil, 'init', '-q');
  git(evil, 'config', 'core.fsmonitor', `touch ${join(top, 'PWNED')}; false`);
  mkdirSync(proj);
  git(proj, 'init', '-q');
  writeFileSync(join(proj, 'a'), 'x\n');
  git(proj, 'add', 'a');
  git(proj, '-c', 'user.name=a', '-c', 'user.email=a@example.com', 'commit', '-qm', 'init');
  for (const dir of ['sub1', 'sub2', 'sub3', 'sub4', 'sub5']) mkdirSync(join(proj, dir));
  writeFileSync(join(proj, 'sub1/.git'), `gitdir: ${join(evil, '.git')}\n`);
  git(join(proj, 'sub2'), 'init', '-q', '--bare', 'bare.git');
  git(join(proj, 'sub2/bare.git'), 'config', 'core.pager', `touch ${join(top, 'PWNED')}`);
  git(join(proj, 'sub3'), 'init', '-q');
  writeFileSync(join(top, 'inc'), `[core]\n\tpager = touch ${join(top, 'PWNED')}\n`);
  git(join(proj, 'sub3'), 'config', 'include.path', join(top, 'inc'));
  git(join(proj, 'sub4'), 'init', '-q');
  git(join(proj, 'sub4'), 'config', 'core.worktree', evil);
  git(join(proj, 'sub5'), 'init', '-q');
  writeFileSync(join(proj, 'sub5/.git/commondir'), `${join(evil, '.git')}\n`);
});

afterAll(() => {
  if (top) rmSync(top, { recursive: true, force: true });
});

const ASKS = [
  ...['git status', 'git log', 'git diff'].flatMap((cmd) =>
    ['sub1', 'sub3', 'sub4', 'sub5'].map((dir) => `cd ${dir} && ${cmd}`),
  ),
  'cd sub2/bare.git && git log',
  'cd sub1; git status',
  'pushd sub3 && git log',
  'env -C sub3 git log',
  'timeout 5 git -C sub3 log',
  'find sub3 -name x -execdir git log \\;',
  'ls sub3 | xargs -I{} git -C {} log',
  'GIT_DIR=sub2/bare.git git log',
  'git --git-dir=sub2/bare.git log',
  'export GIT_DIR=sub2/bare.git; git status',
];

async function verdict(cmd: string, cwd = proj) {
  return (
    await decideCase(
      { cmd, expect: 'ask' },
      {
        projectRoot: proj,
        cwd,
        gitConfig: new GitConfigSafety({ env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } }),
      },
    )
  ).verdict;
}

describe.skipIf(!hasGit)('red team: git on planted repositories', () => {
  it.each(ASKS)('asks for %s', async (cmd) => {
    expect(await verdict(cmd)).toBe('ask');
  });

  it('asks from inside the planted folders too', async () => {
    expect(await verdict('git log', join(proj, 'sub2/bare.git'))).toBe('ask');
    expect(await verdict('git status', join(proj, 'sub1'))).toBe('ask');
  });

  it("runs git in the project's own clean repository without asking", async () => {
    for (const cmd of ['git status', 'git log --oneline', 'git diff', 'git show --stat'])
      expect(await verdict(cmd), cmd).toBe('allow');
  });
});
