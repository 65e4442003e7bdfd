/**
 * The `worktree` settings (Claude Code's keys) for the worktrees Yoke makes with git:
 * - `baseRef`: `head` (Yoke's default) branches from the current HEAD; `fresh` from the remote's
 *   default branch (`origin/HEAD`), falling back to HEAD where the repository has none;
 * - `sparsePaths`: only these folders are checked out (git sparse-checkout, cone mode) — git then
 *   turns on `extensions.worktreeConfig` in the repository, as it does for any sparse worktree;
 * - `symlinkDirectories`: folders of the main work tree (`node_modules`, caches) linked into the
 *   new worktree instead of being made again.
 * Settings come from the project too, so every name is checked before git or the file system
 * sees it: relative, no `..`, no leading `-`, and a linked folder must really be inside the
 * repository after resolving links.
 */
import { lstatSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize } from 'node:path';
import { isWithin } from '../../lib/path-within';
import { type Git, gitOrThrow, WorktreeError } from './worktree-git';

export type WorktreeSettings = {
  baseRef?: 'fresh' | 'head';
  sparsePaths?: readonly string[];
  symlinkDirectories?: readonly string[];
};

/** A folder name from the settings, or why it cannot be one. */
export function settingsFolder(key: string, value: string): string {
  const path = normalize(value.trim()).replace(/\/+$/, '');
  const bad =
    path === '' ||
    path === '.' ||
    isAbsolute(path) ||
    path.startsWith('-') ||
    path.split('/').some((part) => part === '..' || part === '.git');
  if (bad)
    throw new WorktreeError(
      `worktree.${key} lists ${JSON.stringify(value)}: give folders inside the repository, relative to its root.`,
    );
  return path;
}

/** The commit a new worktree starts from. */
export async function baseCommitFor(git: Git, cwd: string, settings: WorktreeSettings): Promise<string> {
  if (settings.baseRef === 'fresh') {
    const remoteHead = await git(['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD'], cwd);
    const ref = remoteHead.stdout.trim();
    if (remoteHead.code === 0 && ref.startsWith('refs/remotes/origin/')) {
      const commit = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], cwd);
      if (commit.code === 0) return commit.stdout.trim();
    }
  }
  return gitOrThrow(
    git,
    ['rev-parse', '--verify', 'HEAD^{commit}'],
    cwd,
    'The repository has no commit to start a worktree from',
  );
}

/** The `git worktree add` options: `--no-checkout` when the checkout is sparse (done after). */
export function addOptions(settings: WorktreeSettings): string[] {
  return (settings.sparsePaths?.length ?? 0) > 0 ? ['--no-checkout'] : [];
}

/** After `git worktree add`: the sparse checkout, then the linked folders. */
export async function applyWorktreeSettings(
  git: Git,
  worktree: { path: string; repoRoot: string },
  settings: WorktreeSettings,
): Promise<void> {
  const sparse = (settings.sparsePaths ?? []).map((path) => settingsFolder('sparsePaths', path));
  if (sparse.length > 0) {
    await gitOrThrow(
      git,
      ['sparse-checkout', 'set', '--cone', '--', ...sparse],
      worktree.path,
      'Cannot set the sparse checkout',
    );
    await gitOrThrow(git, ['checkout'], worktree.path, 'Cannot check the sparse paths out');
  }
  for (const folder of settings.symlinkDirectories ?? [])
    linkFolder(worktree, settingsFolder('symlinkDirectories', folder));
}

/** Links `<repo>/<folder>` to `<worktree>/<folder>` when the first is a real folder of the repository. */
function linkFolder(worktree: { path: string; repoRoot: string }, folder: string): void {
  const root = realpathSync(worktree.repoRoot);
  const source = join(root, folder);
  let real: string;
  try {
    real = realpathSync(source);
  } catch {
    return; // Nothing to share (no node_modules yet): the worktree makes its own.
  }
  if (!isWithin(real, root) || !lstatSync(real).isDirectory())
    throw new WorktreeError(
      `worktree.symlinkDirectories: ${folder} is not a folder inside the repository (it leads to ${real}).`,
    );
  const target = join(worktree.path, folder);
  try {
    lstatSync(target);
    return; // The checkout has it (tracked): keep the worktree's own.
  } catch {
    // absent: link it
  }
  mkdirSync(dirname(target), { recursive: true });
  if (!isWithin(realpathSync(dirname(target)), realpathSync(worktree.path)))
    throw new WorktreeError(`worktree.symlinkDirectories: ${folder} leads outside the worktree.`);
  symlinkSync(real, target, 'dir');
}
