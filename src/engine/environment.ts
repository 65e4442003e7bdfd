/**
 * Facts about the machine and the repository for the system prompt, gathered once per session.
 * Git is asked with a short timeout so a huge or broken repository never delays the first turn,
 * and with two concurrent calls (status with the branch, and the log) rather than a chain, since
 * this sits on the path to the first model request.
 */
import { release } from 'node:os';
import { findGitRoot } from '../config/git-root';
import type { Env } from '../model/types';
import type { GitConfigSafety } from '../permissions/git-config-safety';
import { neutralGitEnv } from '../permissions/git-neutral-env';
import type { EnvironmentFacts } from './system-prompt';

const GIT_TIMEOUT_MS = 2_000;
const MAX_STATUS_CHARS = 2_000;

function git(cwd: string, env: Env, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    // child_process loads here, on first use: outside a repository it is not needed to start.
    process.getBuiltinModule('node:child_process').execFile(
      'git',
      args,
      // The repository may be planted: its monitor, hooks and pager stay off (git-neutral-env).
      { cwd, env: neutralGitEnv(env), timeout: GIT_TIMEOUT_MS, maxBuffer: 1 << 20 },
      (error, stdout) => {
        resolve(error ? undefined : stdout.trimEnd());
      },
    );
  });
}

export type GitFacts = { isGitRepo: boolean; gitStatus?: string };

/** `## main...origin/main [ahead 1]` → `main`; a detached or unborn HEAD says so. */
function branchOf(header: string | undefined): string {
  if (!header) return '(unknown)';
  const name = header.replace(/^## /, '');
  if (name.startsWith('HEAD (no branch)')) return '(detached HEAD)';
  const unborn = /^No commits yet on (.+)$/.exec(name);
  if (unborn) return `${unborn[1]} (no commits yet)`;
  return name.split('...')[0]?.split(' ')[0] ?? name;
}

/**
 * Whether git could find a repository from `cwd`: a `.git` folder or file (worktrees and
 * submodules have a file) here or above, or `GIT_DIR` set. Outside a repository this spares the
 * two git processes, whose start alone costs several milliseconds of the first request.
 */
export function mayBeInGitRepo(
  cwd: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  return Boolean(env.GIT_DIR) || findGitRoot(cwd) !== undefined;
}

/** How a session asks git: its environment, and its checker of repository configuration (built on that env). */
export type SessionGit = { env: Env; gitConfig: GitConfigSafety };

/**
 * Status and recent commits, asked only of a repository whose own configuration cannot make
 * `git status` run a program (a clean filter or a `core.fsmonitor` runs before the first turn,
 * with no one asked): otherwise the prompt says why they are missing. Git runs in the session's
 * environment, as the Bash tool's git does, and the session's checker judges that same repository.
 */
export async function gatherGitStatus(cwd: string, session: SessionGit): Promise<GitFacts> {
  if (!mayBeInGitRepo(cwd, session.env)) return { isGitRepo: false };
  const verdict = await session.gitConfig.check(cwd);
  if (!verdict.harmless) return { isGitRepo: true, gitStatus: `(not gathered: ${verdict.reason})` };
  const [status, log] = await Promise.all([
    git(cwd, session.env, ['--no-optional-locks', 'status', '--short', '--branch']),
    git(cwd, session.env, ['--no-optional-locks', 'log', '--oneline', '-n', '5']),
  ]);
  if (status === undefined) return { isGitRepo: false };
  const [header, ...entries] = status.split('\n');
  let statusText = entries.join('\n');
  if (statusText.length > MAX_STATUS_CHARS) {
    statusText = `${statusText.slice(0, MAX_STATUS_CHARS)}\n… (truncated; run git status for the full list)`;
  }
  const parts = [`Current branch: ${branchOf(header)}`, `Status:\n${statusText || '(clean)'}`];
  if (log) parts.push(`Recent commits:\n${log}`);
  return { isGitRepo: true, gitStatus: parts.join('\n\n') };
}

export function environmentFacts(
  cwd: string,
  model: string,
  git: GitFacts,
  additionalDirectories: readonly string[] = [],
  now: Date = new Date(),
): EnvironmentFacts {
  return {
    cwd,
    platform: process.platform,
    osVersion: release(),
    shell: process.env.SHELL,
    date: now.toISOString().slice(0, 10),
    model,
    additionalDirectories,
    ...git,
  };
}

export async function gatherEnvironment(
  cwd: string,
  model: string,
  git: SessionGit,
  additionalDirectories: readonly string[] = [],
  now: Date = new Date(),
): Promise<EnvironmentFacts> {
  return environmentFacts(cwd, model, await gatherGitStatus(cwd, git), additionalDirectories, now);
}
