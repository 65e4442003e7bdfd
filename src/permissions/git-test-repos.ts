/**
 * Real git repositories for the tests of git-config-safety and the Bash tool's neutral git
 * environment: a work tree with a commit and a tracked file changed in place (so `git status`
 * hashes it and `git diff` has something to show), in a clean environment (no system or user
 * configuration, an empty home), with helpers to plant what a hostile repository would carry.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export type PlantedRepo = {
  /** The work tree. */
  work: string;
  /** The marker a planted program creates: its absolute path. */
  marker: string;
  /** A shell command that creates the marker (for config values run through the shell). */
  touch: string;
  env: Record<string, string>;
  git(...args: string[]): string;
  write(path: string, content: string): void;
  /** An executable script that creates the marker (for values git runs without a shell). */
  script(path: string): string;
};

/** A clean environment: no system or global git configuration, an empty home, a dumb terminal. */
export function cleanGitEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    TERM: 'dumb',
    LC_ALL: 'C',
  };
}

export function makePlantedRepo(root: string): PlantedRepo {
  const work = join(root, 'work');
  mkdirSync(join(root, 'home'), { recursive: true });
  mkdirSync(work, { recursive: true });
  const env = cleanGitEnv(join(root, 'home'));
  const marker = join(root, 'M');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: work, env, encoding: 'utf8' });
  const write = (path: string, content: string) => {
    mkdirSync(dirname(join(work, path)), { recursive: true });
    writeFileSync(join(work, path), content);
  };
  const script = (path: string) => {
    write(path, `#!/bin/sh\ntouch '${marker}'\ncat "$@" 2>/dev/null\n`);
    chmodSync(join(work, path), 0o755);
    return join(work, path);
  };
  git('init', '-q', '-b', 'main', '.');
  git('config', 'user.email', 'a@example.invalid');
  git('config', 'user.name', 'n');
  write('f.txt', 'hello\n');
  git('add', 'f.txt');
  git('commit', '-qm', 'init');
  // Same size, new content, and an mtime the index has not seen: status must hash it.
  write('f.txt', 'hellp\n');
  return { work, marker, touch: `touch '${marker}'`, env, git, write, script };
}
