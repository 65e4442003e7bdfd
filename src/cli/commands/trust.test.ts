/** `yoke trust`, `--list` and `--remove` on a real temporary home. */
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTrustCommand } from './trust';

let root: string;
let cwd: string;
let out: string[];
let context: Parameters<typeof runTrustCommand>[1];
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'yoke-trust-cmd-')));
  cwd = join(root, 'proj');
  await mkdir(cwd);
  await mkdir(join(root, 'home'));
  out = [];
  context = {
    cwd,
    env: {
      HOME: join(root, 'home'),
      YOKE_HOME: join(root, 'home', '.yoke'),
      CLAUDE_CONFIG_DIR: join(root, 'claude'),
    },
    print: (line) => out.push(line),
    warn: (line) => out.push(`warning: ${line}`),
  };
});
afterEach(async () => rm(root, { recursive: true, force: true }));

describe('yoke trust', () => {
  it('trusts the current folder, lists it, and takes it back', async () => {
    expect(await runTrustCommand([], context)).toBe(0);
    expect(out[0]).toContain(`Trusted ${cwd} and its subfolders`);
    out = [];
    expect(await runTrustCommand(['--list'], context)).toBe(0);
    expect(out[0]).toMatch(new RegExp(`^${cwd}\\s+.*state\\.json$`));
    expect(out[1]).toBe(`This folder is trusted (through ${cwd}).`);
    out = [];
    expect(await runTrustCommand(['--remove'], context)).toBe(0);
    expect(out).toEqual([`Removed trust for ${cwd}.`]);
    out = [];
    await runTrustCommand(['--list'], context);
    expect(out).toEqual([
      'No trusted folders. Run "yoke trust" in a project to trust it.',
      'This folder is not trusted: its project settings cannot allow tools or choose acceptEdits.',
    ]);
  });

  it('takes a folder relative to the current one, and refuses bad usage', async () => {
    await mkdir(join(cwd, 'pkg'));
    await runTrustCommand(['pkg'], context);
    expect(out[0]).toContain(`Trusted ${join(cwd, 'pkg')}`);
    await expect(runTrustCommand(['a', 'b'], context)).rejects.toThrow(/usage: yoke trust/);
    await expect(runTrustCommand(['--list', 'x'], context)).rejects.toThrow(/usage/);
    await expect(runTrustCommand(['--forever'], context)).rejects.toThrow(/unknown option --forever/);
    await expect(runTrustCommand([join(root, 'home')], context)).rejects.toThrow(/home folder/);
  });

  it('says when a removed folder is still trusted from above, and fails', async () => {
    await mkdir(join(cwd, 'pkg'));
    await runTrustCommand([], context);
    out = [];
    expect(await runTrustCommand(['--remove', 'pkg'], context)).toBe(1);
    expect(out).toEqual([
      `Yoke had no trust record for ${join(cwd, 'pkg')}.`,
      `It is still trusted through the record for ${cwd}; run "yoke trust --remove ${cwd}".`,
    ]);
  });
});
