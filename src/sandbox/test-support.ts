/**
 * For the sandbox tests: a project folder with a git repository and a secret, a home folder with
 * an ssh key, and a SandboxManager over them built from data like a session builds it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PermissionRule } from '../lib/permission-vocabulary';
import { SandboxManager } from './manager';
import { defaultSandboxConfig, type SandboxConfig } from './settings';

export type SandboxFixture = { root: string; project: string; home: string; outside: string };

/** Whether real bubblewrap can run here (CI installs it; a machine without it skips, saying so). */
export function hasBubblewrap(): boolean {
  try {
    execFileSync('bwrap', [
      '--unshare-all',
      '--ro-bind',
      '/',
      '/',
      '--proc',
      '/proc',
      '--dev',
      '/dev',
      'true',
    ]);
    return true;
  } catch {
    return false;
  }
}

export function sandboxFixture(): SandboxFixture {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-sbx-')));
  const project = join(root, 'project');
  const home = join(root, 'home');
  const outside = join(root, 'outside');
  for (const dir of [project, home, outside, join(home, '.ssh')]) mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q', project]);
  writeFileSync(join(project, '.env'), 'API_KEY=secret-in-env\n');
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n');
  writeFileSync(join(outside, 'keep.txt'), 'outside\n');
  return { root, project, home, outside };
}

export function sandboxManager(
  fixture: SandboxFixture,
  config: Partial<SandboxConfig> = {},
  rules: readonly PermissionRule[] = [],
): SandboxManager {
  return new SandboxManager({
    config: { ...defaultSandboxConfig(), enabled: true, ...config },
    projectRoot: fixture.project,
    additionalDirs: [],
    home: fixture.home,
    rules,
    protectedPaths: [],
  });
}

export const denyRead = (ruleContent: string): PermissionRule => ({
  toolName: 'Read',
  ruleContent,
  behavior: 'deny',
  source: 'userSettings',
});
