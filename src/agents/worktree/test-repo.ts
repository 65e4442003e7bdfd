/**
 * A real git repository for the worktree tests: one commit on `main`, in a clean environment
 * (no system or user git configuration, an empty home).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cleanGitEnv } from '../../permissions/git-test-repos';

export type TestRepo = {
  /** The scratch folder holding the repository (`<root>/repo`) and the home. */
  root: string;
  work: string;
  env: Record<string, string>;
  git(cwd: string, ...args: string[]): string;
  write(path: string, content: string): void;
};

export function makeTestRepo(prefix = 'yoke-wt-'): TestRepo {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const work = join(root, 'repo');
  mkdirSync(join(root, 'home'), { recursive: true });
  mkdirSync(work);
  const env = cleanGitEnv(join(root, 'home'));
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, encoding: 'utf8' });
  const write = (path: string, content: string) => {
    const full = join(work, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  };
  git(work, 'init', '-q', '-b', 'main', '.');
  git(work, 'config', 'user.email', 'a@example.invalid');
  git(work, 'config', 'user.name', 'n');
  write('src/a.ts', 'export const a = 1;\n');
  git(work, 'add', '.');
  git(work, 'commit', '-qm', 'init');
  return { root, work, env, git, write };
}
