/**
 * A command run in an agent's worktree below `.yoke/worktrees`: the project's `.yoke` is bound
 * read-only (Yoke's project settings, commands and agents live there), which left the agent
 * unable to write a file of its own worktree, or to commit there (its git folder lies below the
 * read-only `.git/worktrees`). The worktree and its git folder are made writable again for the
 * commands run in it, while what decides what runs stays read-only: the worktree's own
 * configuration folders and `.git` file, and its git folder's `commondir`, `gitdir` and
 * `config.worktree`.
 */
import { join, resolve } from 'node:path';
import { readRegularTextSync } from '../lib/regular-file-text';
import { isWithin } from '../permissions/path-rules';
import { PROJECT_PROTECTED, type ReadOnlyPath, realOrLexical, type SandboxPolicy } from './policy';

export type ProjectCopy = { original: string; copy: string };

/** Folders made writable again inside read-only entries, and what stays read-only in them. */
export type OwnWorktree = { islands: string[]; readOnly: ReadOnlyPath[] };

/** The git folder a linked worktree's `.git` file names, when it is one of `original`'s. */
function worktreeGitDir(copy: string, original: string): string | undefined {
  let text: string;
  try {
    text = readRegularTextSync(join(copy, '.git'), 64 * 1024);
  } catch {
    return undefined;
  }
  const named = /^gitdir: (.+)$/m.exec(text)?.[1]?.trim();
  if (!named) return undefined;
  const gitDir = realOrLexical(resolve(copy, named));
  const admin = join(realOrLexical(join(original, '.git')), 'worktrees');
  return isWithin(gitDir, admin) && gitDir !== admin ? gitDir : undefined;
}

function inCopy(copy: string): ReadOnlyPath[] {
  return [
    ...PROJECT_PROTECTED.map(({ name, why, whenMissing }) => ({
      path: join(copy, name),
      why: `${why} (in the worktree ${copy})`,
      whenMissing,
    })),
    {
      path: join(copy, '.git'),
      why: `it says where git reads the worktree's config and hooks from (in the worktree ${copy})`,
      whenMissing: 'nothing',
    },
  ];
}

function inGitDir(gitDir: string): ReadOnlyPath[] {
  const why = 'it decides where git reads the worktree’s config and hooks from, or adds config';
  return [
    { path: join(gitDir, 'commondir'), why, whenMissing: 'nothing' },
    {
      path: join(gitDir, 'gitdir'),
      why: 'it links the worktree back to its repository',
      whenMissing: 'nothing',
    },
    // Read when the repository's (read-only) config enables worktree config; empty, it adds nothing.
    { path: join(gitDir, 'config.worktree'), why, whenMissing: 'empty-file' },
  ];
}

/**
 * The worktree `cwd` lies in, when it is a copy of the project (proven by git's files, or named by
 * a WorktreeCreate hook) inside a read-only entry of the policy; never any other folder there.
 */
export function ownWorktree(
  policy: SandboxPolicy,
  copies: readonly ProjectCopy[],
  cwd: string,
): OwnWorktree | undefined {
  const where = realOrLexical(cwd);
  const writable = (path: string) =>
    policy.readOnly.some((entry) => isWithin(path, entry.path) && path !== entry.path) &&
    policy.writable.some((root) => isWithin(path, root.path));
  const own = copies.find(({ copy }) => isWithin(where, copy) && writable(copy));
  if (!own) return undefined;
  const gitDir = worktreeGitDir(own.copy, own.original);
  const withGit = gitDir !== undefined && writable(gitDir);
  return {
    islands: withGit ? [own.copy, gitDir] : [own.copy],
    readOnly: [...inCopy(own.copy), ...(withGit ? inGitDir(gitDir) : [])],
  };
}
