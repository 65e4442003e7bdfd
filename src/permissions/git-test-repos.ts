/**
 * Real git repositories for the tests of git-config-safety and the Bash tool's neutral git
 * environment: a work tree with a commit, a tracked file changed in place (so `git status` hashes
 * it and `git diff` has something to show) and one only touched (so refreshing the index writes
 * it back), in a clean environment (no system or user
 * configuration, an empty home), with helpers to plant what a hostile repository would carry.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
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
  write('g.txt', 'same\n');
  git('add', 'f.txt', 'g.txt');
  git('commit', '-qm', 'init');
  // Same size, new content: status must hash f.txt (and run a clean filter on it).
  write('f.txt', 'hellp\n');
  // Same content, another mtime: refreshing the index updates g.txt's entry and writes the index
  // back, which is what runs post-index-change.
  utimesSync(join(work, 'g.txt'), new Date('2001-01-01'), new Date('2001-01-01'));
  return { work, marker, touch: `touch '${marker}'`, env, git, write, script };
}
