/**
 * The red-team attack set that needs a real project (red-team-disk-cases.ts), through the real
 * pipeline on a scratch project with planted links, a git repository and secrets outside it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseLabel, runCase } from './corpus-test-support';
import { diskPathFs } from './real-paths';
import { RED_TEAM_DISK_CASES } from './red-team-disk-cases';

let top: string;

function write(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

beforeAll(() => {
  top = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-red-team-')));
  const proj = join(top, 'proj');
  write(join(top, 'outside/secret.txt'), 'OUTSIDE_SECRET\n');
  write(join(top, 'home/.ssh/id_rsa'), 'HOME_SECRET\n');
  write(join(top, 'home/.bashrc'), 'alias x=y\n');
  write(join(proj, '.env'), 'ENV_SECRET\n');
  write(join(proj, 'README.md'), 'readme\n');
  write(join(proj, 'src/a.ts'), 'export const a = 1;\n');
  write(join(proj, 'config/app.json'), '{}\n');
  write(join(proj, 'package.json'), '{"scripts":{"test":"x"}}\n');
  write(join(proj, 'x'), 'b\na\n');
  for (const name of ['--output=pwned', '-c', '--files0-from=list', '-i', '--run-tests', '-r', 'list'])
    write(join(proj, 'planted', name), '{}\n');
  for (const name of ['a.txt', 'b.json']) write(join(proj, 'plain', name), '{}\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: proj, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=a', '-c', 'user.email=a@example.com', 'commit', '-qm', 'init');
  // A repository of its own whose .env is ignored, not tracked.
  const sub = join(proj, 'sub-repo');
  write(join(sub, '.env'), 'SUB_SECRET\n');
  write(join(sub, '.gitignore'), '.env\n');
  write(join(sub, 'main.ts'), 'export {};\n');
  const subGit = (...args: string[]) => execFileSync('git', args, { cwd: sub, stdio: 'ignore' });
  subGit('init', '-q');
  subGit('add', '-A');
  subGit('-c', 'user.name=a', '-c', 'user.email=a@example.com', 'commit', '-qm', 'init');
  symlinkSync('../outside', join(proj, 'out-link'));
  symlinkSync('../outside/secret.txt', join(proj, 'secret-link'));
  symlinkSync('.env', join(proj, 'env-link'));
  symlinkSync('.git/config', join(proj, 'cfg-link'));
  symlinkSync('/usr/share', join(proj, 'usr-share'));
  symlinkSync('/proc/self/root', join(proj, 'proc-root'));
});

afterAll(() => rmSync(top, { recursive: true, force: true }));

describe('red-team attack set on a real project', () => {
  it.each(RED_TEAM_DISK_CASES.map((c) => [`[${c.cls}] ${caseLabel(c)}`, c] as const))('%s', async (_, c) => {
    const proj = join(top, 'proj');
    const verdict = await runCase(c, {
      projectRoot: proj,
      cwd: proj,
      home: join(top, 'home'),
      fs: diskPathFs,
    });
    expect(verdict).toBe(c.expect);
  });
});
