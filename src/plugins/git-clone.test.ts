/**
 * Plugin sources are fetched with the system git, from a real (bare) repository here. The `ext::`
 * transport runs a command as its "connection": the calibration below proves the URL really does
 * run one on this machine when a git configuration allows it, and then that both locks — the URL
 * check and `GIT_ALLOW_PROTOCOL` on its own — keep it from running.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runGit, withGitConfig } from '../permissions/git-neutral-env';
import { cloneRepository, GitCloneError, git, gitUrlProblem } from './git-clone';
import { bareRepositoryOf, writeTree } from './test-support';

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'yoke-clone-')));
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** A user whose git configuration allows the ext transport (what the locks must withstand). */
const extAllowedEnv = () =>
  withGitConfig({ PATH: process.env.PATH, HOME: root }, [['protocol.ext.allow', 'always']]);

describe('gitUrlProblem', () => {
  it.each([
    'https://github.com/owner/repo.git',
    'http://git.example.com/repo',
    'ssh://git@example.com/repo.git',
    'git://example.com/repo.git',
    'git@github.com:owner/repo.git',
    'file:///srv/repos/plugin.git',
    '/srv/repos/plugin.git',
  ])('accepts %s', (url) => {
    expect(gitUrlProblem(url)).toBeUndefined();
  });

  it.each([
    [
      'ext::sh -c touch% /tmp/x',
      '"ext::" URLs run a git remote helper (ext:: runs any command); only https, http, ssh, git and file sources are fetched',
    ],
    [
      'fd::3',
      '"fd::" URLs run a git remote helper (ext:: runs any command); only https, http, ssh, git and file sources are fetched',
    ],
    [
      '--upload-pack=touch /tmp/x',
      '"--upload-pack=touch /tmp/x" starts with "-" and would be read by git as an option',
    ],
    ['https://example.com/a\nb', 'the git URL contains control characters'],
    [
      'ftp://example.com/repo',
      '"ftp://example.com/repo" uses a transport Yoke does not fetch; use an https, ssh, git or file URL',
    ],
    [
      'relative/path',
      '"relative/path" is not a git URL (https://…, ssh://…, git@host:path, file://… or an absolute path)',
    ],
  ])('refuses %j', (url, why) => {
    expect(gitUrlProblem(url)).toBe(why);
  });
});

describe('cloneRepository', () => {
  it('clones a bare repository with depth 1 into place and reports the commit', async () => {
    await writeTree(join(root, 'src'), { 'README.md': 'hello' });
    const bare = await bareRepositoryOf(join(root, 'src'), join(root, 'plugin.git'));
    const dest = join(root, 'checkout');
    const { commit } = await cloneRepository({
      url: bare,
      dest,
      env: { PATH: process.env.PATH, HOME: root },
    });
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    await expect(readFile(join(dest, 'README.md'), 'utf8')).resolves.toBe('hello');
    const depth = await runGit(['rev-list', '--count', 'HEAD'], {
      cwd: dest,
      env: process.env,
      timeoutMs: 10_000,
      maxBuffer: 4096,
    });
    expect(depth.stdout.trim()).toBe('1');
  });

  it('a failed clone leaves nothing at the destination and says what git said', async () => {
    const dest = join(root, 'checkout');
    const missing = join(root, 'missing.git');
    await expect(
      cloneRepository({ url: missing, dest, env: { PATH: process.env.PATH, HOME: root } }),
    ).rejects.toThrow(new RegExp(`^git clone of ${missing} failed: fatal: .*`));
    expect(existsSync(dest)).toBe(false);
  });

  it('calibration: with ext allowed by the git configuration, a plain git clone of an ext:: URL runs its command', async () => {
    const marker = join(root, 'ran');
    const result = await runGit(['clone', `ext::sh -c touch% ${marker}`, join(root, 'd')], {
      cwd: root,
      env: extAllowedEnv() as NodeJS.ProcessEnv,
      timeoutMs: 10_000,
      maxBuffer: 65536,
    });
    expect(result.code).not.toBe(0);
    expect(existsSync(marker)).toBe(true);
  });

  it('refuses the same ext:: URL before git starts, and GIT_ALLOW_PROTOCOL alone also stops it', async () => {
    const marker = join(root, 'ran');
    const url = `ext::sh -c touch% ${marker}`;
    await expect(cloneRepository({ url, dest: join(root, 'd1'), env: extAllowedEnv() })).rejects.toThrow(
      GitCloneError,
    );
    // The second lock on its own: the URL check bypassed, git itself refuses the transport.
    await expect(git(['clone', url, join(root, 'd2')], root, { url, env: extAllowedEnv() })).rejects.toThrow(
      "fatal: transport 'ext' not allowed",
    );
    expect(existsSync(marker)).toBe(false);
  });
});
