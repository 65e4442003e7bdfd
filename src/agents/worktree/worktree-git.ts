/**
 * The git commands behind worktrees, run with `execFile` (never a shell string) and in the
 * neutral configuration of git-neutral-env: no hooks (`git worktree add` would run the
 * repository's post-checkout), no fsmonitor, no pager. Every failure becomes a `WorktreeError`
 * whose message is one readable line with git's own reason.
 */
import type { Env } from '../../model/types';
import { type GitResult, NEUTRAL_GIT_CONFIG, runGit, withGitConfig } from '../../permissions/git-neutral-env';

const TIMEOUT_MS = 60_000;
const MAX_OUTPUT = 16 * 1024 * 1024;

export class WorktreeError extends Error {
  override name = 'WorktreeError';
}

/** The environment worktree commands run in: the session's, with the repository's programs disarmed. */
export function worktreeGitEnv(env: Env): NodeJS.ProcessEnv {
  return { ...withGitConfig(env, NEUTRAL_GIT_CONFIG), GIT_TERMINAL_PROMPT: '0' } as NodeJS.ProcessEnv;
}

export type Git = (args: readonly string[], cwd: string) => Promise<GitResult>;

/** A git runner for `env`. */
export function gitIn(env: Env): Git {
  const gitEnv = worktreeGitEnv(env);
  return (args, cwd) => runGit(args, { cwd, env: gitEnv, timeoutMs: TIMEOUT_MS, maxBuffer: MAX_OUTPUT });
}

/** Runs git and returns its trimmed stdout, or throws `what` with git's first error line. */
export async function gitOrThrow(
  git: Git,
  args: readonly string[],
  cwd: string,
  what: string,
): Promise<string> {
  const result = await git(args, cwd);
  if (result.code === 0) return result.stdout.trim();
  const reason = firstLine(result.stderr) || `git exited with ${result.code}`;
  throw new WorktreeError(`${what}: ${reason}`);
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((line) => line.replace(/^(fatal|error): /, '').trim())
      .find((line) => line !== '') ?? ''
  );
}

/** Paths `git status` reports: modified, staged, deleted and untracked files (ignored ones are not work). */
export async function uncommittedFiles(git: Git, worktree: string): Promise<string[]> {
  const status = await git(
    ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=none'],
    worktree,
  );
  // Not trimmed: the first entry's status column may be a space.
  if (status.code !== 0)
    throw new WorktreeError(
      `Cannot read the worktree status: ${firstLine(status.stderr) || `git exited with ${status.code}`}`,
    );
  const files: string[] = [];
  const fields = status.stdout.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i] as string;
    if (entry.length < 4) continue;
    files.push(entry.slice(3));
    // A rename or copy is followed by its source path.
    if (entry[0] === 'R' || entry[0] === 'C') i++;
  }
  return files;
}

/**
 * Commits that only the worktree holds: reachable from its HEAD (or from `branch`, should HEAD
 * have moved off it) but from no other branch and no remote-tracking branch. Removing the
 * worktree and its branch would lose exactly these. Without `withHead` (run from another work
 * tree, once the worktree is gone) only `branch` counts.
 */
export async function unmergedCommits(
  git: Git,
  worktree: string,
  branch: string,
  options: { withHead: boolean } = { withHead: true },
): Promise<number> {
  const heads = options.withHead ? ['HEAD'] : [];
  const branchRef = `refs/heads/${branch}`;
  if ((await git(['rev-parse', '--verify', '--quiet', branchRef], worktree)).code === 0)
    heads.push(branchRef);
  if (heads.length === 0) return 0;
  const excludes = new Set(branch === '' ? [] : [branch]);
  if (options.withHead) {
    const current = await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], worktree);
    if (current.code === 0 && current.stdout.trim() !== '') excludes.add(current.stdout.trim());
  }
  const args = ['rev-list', '--count', ...heads, '--not'];
  for (const name of excludes) args.push(`--exclude=${name}`);
  args.push('--branches', '--remotes');
  const count = await gitOrThrow(git, args, worktree, 'Cannot count the worktree commits');
  return Number.parseInt(count, 10) || 0;
}
