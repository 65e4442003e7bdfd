/** Folder trust on a real disk: Yoke's record, Claude Code's record, subfolders, refusals. */
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectTrust, TrustError, trustedFolders, trustFolder, untrustFolder } from './project-trust';
import { userStatePath } from './user-state';

let root: string;
let project: string;
let env: Record<string, string>;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'yoke-trust-')));
  project = join(root, 'proj');
  await mkdir(join(project, 'sub'), { recursive: true });
  await mkdir(join(root, 'home'));
  env = {
    HOME: join(root, 'home'),
    YOKE_HOME: join(root, 'home', '.yoke'),
    CLAUDE_CONFIG_DIR: join(root, 'claude'),
  };
});
afterEach(async () => rm(root, { recursive: true, force: true }));

describe('folder trust', () => {
  it('is recorded by trustFolder and covers subfolders, not siblings or parents', async () => {
    expect((await projectTrust(project, env)).trusted).toBe(false);
    expect(await trustFolder(project, env)).toEqual({ folder: project });
    expect(await projectTrust(join(project, 'sub'), env)).toMatchObject({
      trusted: true,
      via: { folder: project, file: userStatePath(env) },
    });
    expect((await projectTrust(root, env)).trusted).toBe(false);
    expect((await projectTrust(`${project}-other`, env)).trusted).toBe(false);
  });

  it("honours Claude Code's record in .claude.json, read only", async () => {
    await mkdir(join(root, 'claude'));
    const file = join(root, 'claude', '.claude.json');
    const text = JSON.stringify({
      projects: { [project]: { hasTrustDialogAccepted: true }, [root]: { allowedTools: [] } },
    });
    await writeFile(file, text);
    expect(await projectTrust(join(project, 'sub'), env)).toMatchObject({
      trusted: true,
      via: { folder: project, file },
    });
    expect((await projectTrust(root, env)).trusted).toBe(false);
    const removed = await untrustFolder(project, env);
    expect(removed).toMatchObject({ removed: false, stillTrustedVia: { file } });
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('records the real path of a folder reached through a link', async () => {
    const link = join(root, 'link');
    await symlink(project, link);
    expect((await trustFolder(link, env)).folder).toBe(project);
    expect((await projectTrust(link, env)).trusted).toBe(true);
  });

  it('refuses to trust the home folder, the root or a folder that does not exist', async () => {
    await expect(trustFolder(env.HOME as string, env)).rejects.toThrow(/your home folder/);
    await expect(trustFolder('/', env)).rejects.toThrow(/the filesystem root/);
    await expect(trustFolder(join(root, 'nope'), env)).rejects.toBeInstanceOf(TrustError);
  });

  it('untrusts exactly the recorded folder and says what still trusts it', async () => {
    await trustFolder(project, env);
    await trustFolder(join(project, 'sub'), env);
    const result = await untrustFolder(join(project, 'sub'), env);
    expect(result).toMatchObject({ removed: true, stillTrustedVia: { folder: project } });
    expect((await untrustFolder(project, env)).stillTrustedVia).toBeUndefined();
    expect((await trustedFolders(env)).records).toEqual([]);
  });

  it('reports an unreadable Claude Code file and decides without it', async () => {
    await mkdir(join(root, 'claude'));
    await writeFile(join(root, 'claude', '.claude.json'), '{ nope');
    const trust = await projectTrust(project, env);
    expect(trust.trusted).toBe(false);
    expect(trust.problems[0]).toMatch(/\.claude\.json: invalid JSON .* its trust records are ignored/);
  });
});
