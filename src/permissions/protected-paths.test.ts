/**
 * The session list on a real disk: a protected entry that is a link protects its target too
 * (`~/.bashrc` kept in a dotfiles folder, a project `.claude` linked to a folder inside it).
 */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProtectedPaths } from './protected-paths';

let root: string;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'yoke-protected-')));
  await mkdir(join(root, 'home', 'dotfiles'), { recursive: true });
  await writeFile(join(root, 'home', 'dotfiles', 'bashrc'), '');
  await symlink(join(root, 'home', 'dotfiles', 'bashrc'), join(root, 'home', '.bashrc'));
  await mkdir(join(root, 'proj', 'shared-config'), { recursive: true });
  await symlink(join(root, 'proj', 'shared-config'), join(root, 'proj', '.claude'));
  await mkdir(join(root, 'proj', 'gitdir'));
  await symlink(join(root, 'proj', 'gitdir'), join(root, 'proj', '.git'));
});
afterAll(async () => rm(root, { recursive: true, force: true }));

describe('ProtectedPaths link targets', () => {
  it('protects where protected links point, and nothing else there', async () => {
    const paths = new ProtectedPaths({ home: join(root, 'home') });
    const dotfile = join(root, 'home', 'dotfiles', 'bashrc');
    const linkedSettings = join(root, 'proj', 'shared-config', 'settings.json');
    const linkedHook = join(root, 'proj', 'gitdir', 'hooks', 'pre-commit');
    expect([paths.why(dotfile), paths.why(linkedSettings), paths.why(linkedHook)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    await paths.addLinkTargets(join(root, 'proj'));
    expect(paths.why(dotfile)).toBe('the shell runs it at start-up');
    expect(paths.why(linkedSettings)).toBe("settings decide Yoke's permission rules and hooks");
    expect(paths.why(linkedHook)).toBe('git runs the hooks and config kept under .git');
    expect(paths.why(join(root, 'proj', 'shared-config', 'commands', 'x.md'))).toBeUndefined();
  });
});
