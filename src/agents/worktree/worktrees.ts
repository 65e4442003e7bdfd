/**
 * A git worktree on a new branch for an agent or a session, and its end: an unchanged worktree
 * (no uncommitted or untracked file, no commit only it holds) is removed with its branch; one with
 * changes is kept, and its path and branch are reported. Uncommitted work is never deleted: the
 * removal is `git worktree remove` without `--force`, so git itself refuses a worktree that
 * became dirty after the check, and a process killed at any point leaves the worktree on disk.
 *
 * Worktrees live in `<main work tree>/.yoke/worktrees/<name>`. That folder holds a `.gitignore`
 * of `*` (which ignores itself too), so the repository's `git status` never shows the worktrees
 * and nothing tracked changes. The folder must really be inside the repository: a `.yoke` that a
 * planted symlink sends elsewhere is refused.
 */
import { lstatSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isWithin } from '../../lib/path-within';
import type { Env } from '../../model/types';
import { oneAtATimeIn } from './one-at-a-time';
import {
  type Git,
  gitIn,
  gitOrThrow,
  uncommittedFiles,
  unmergedCommits,
  WorktreeError,
} from './worktree-git';
import { branchForName, folderForName, type WorktreeName } from './worktree-name';
import { addOptions, applyWorktreeSettings, baseCommitFor, type WorktreeSettings } from './worktree-settings';

export { WorktreeError };

export const WORKTREES_FOLDER = join('.yoke', 'worktrees');

/** A worktree this process made (or reopened), with what its end needs to know. */
export type Worktree = {
  path: string;
  branch: string;
  /** The main work tree of the repository the worktree belongs to. */
  repoRoot: string;
  /** The commit it started from. */
  baseCommit: string;
  /** False when `--worktree=name` reopened a worktree an earlier session kept: it is never removed. */
  createdHere: boolean;
};

export type WorktreeChanges = { uncommittedFiles: string[]; unmergedCommits: number };

export type WorktreeOutcome =
  | { kind: 'removed'; path: string; branch: string }
  | { kind: 'kept'; path: string; branch: string; changes: WorktreeChanges; reason: string };

export const hasChanges = (changes: WorktreeChanges) =>
  changes.uncommittedFiles.length > 0 || changes.unmergedCommits > 0;

/** The main work tree of the repository `cwd` is in (a worktree's own root leads back to it). */
export async function mainWorkTree(git: Git, cwd: string): Promise<string> {
  const out = await gitOrThrow(
    git,
    ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-common-dir'],
    cwd,
    `${cwd} is not in a git repository, so no worktree can be made`,
  );
  const [top, common] = out.split('\n');
  if (!top || !common) throw new WorktreeError(`${cwd} has no work tree, so no worktree can be made.`);
  // A work tree's git folder is `<root>/.git`; in a linked worktree the common folder is the main one's.
  return basename(common) === '.git' ? dirname(common) : top;
}

/** `<repoRoot>/.yoke/worktrees`, made if needed, proven to be inside the repository after resolving links. */
export function worktreesFolder(repoRoot: string): string {
  const root = realpathSync(repoRoot);
  const folder = join(root, WORKTREES_FOLDER);
  for (const step of [join(root, '.yoke'), folder]) {
    const stat = lstatOrUndefined(step);
    if (stat?.isSymbolicLink())
      throw new WorktreeError(
        `${step} is a symbolic link; worktrees are made only in a real folder inside the repository.`,
      );
    if (stat && !stat.isDirectory()) throw new WorktreeError(`${step} exists and is not a folder.`);
  }
  mkdirSync(folder, { recursive: true });
  if (!isWithin(realpathSync(folder), root))
    throw new WorktreeError(`${folder} leads outside the repository; no worktree is made there.`);
  try {
    writeFileSync(join(folder, '.gitignore'), '*\n', { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return folder;
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

export type CreateWorktreeOptions = {
  /** Where the request comes from: any folder of the repository (a worktree of it too). */
  cwd: string;
  name: WorktreeName;
  env: Env;
  /** `--worktree=name`: reopen the worktree of that name if an earlier session kept it. */
  reuseExisting?: boolean;
  /** The `worktree` settings: base ref, sparse paths, linked folders (worktree-settings.ts). */
  settings?: WorktreeSettings;
};

/** Makes `<repo>/.yoke/worktrees/<name>` on a new branch `worktree-<name>` at the current HEAD. */
export async function createWorktree(options: CreateWorktreeOptions): Promise<Worktree> {
  const git = gitIn(options.env);
  const repoRoot = await mainWorkTree(git, options.cwd);
  const branch = branchForName(options.name);
  const path = join(worktreesFolder(repoRoot), folderForName(options.name));
  if (lstatOrUndefined(path)) {
    if (options.reuseExisting) return reopen(git, repoRoot, path);
    throw new WorktreeError(
      `A worktree named ${options.name} already exists at ${path}; choose another name.`,
    );
  }
  const settings = options.settings ?? {};
  const baseCommit = await baseCommitFor(git, options.cwd, settings);
  await oneAtATimeIn(repoRoot, () =>
    gitOrThrow(
      git,
      ['worktree', 'add', ...addOptions(settings), '-b', branch, path, baseCommit],
      repoRoot,
      `Cannot make the worktree ${options.name}`,
    ),
  );
  const worktree: Worktree = { path, branch, repoRoot, baseCommit, createdHere: true };
  try {
    await applyWorktreeSettings(git, worktree, settings);
  } catch (error) {
    // Nothing is in it yet but what git checked out: it goes, and the reason is told.
    await finishWorktree(worktree, options.env, { discard: true }).catch(() => undefined);
    throw error;
  }
  return worktree;
}

/**
 * An existing linked worktree of the repository `cwd` is in, as `git worktree list` shows it
 * (EnterWorktree's `path`, `--worktree=name` again). It was not made here, so it is never removed
 * without an explicit discard.
 */
export async function openWorktree(options: { cwd: string; path: string; env: Env }): Promise<Worktree> {
  const git = gitIn(options.env);
  const repoRoot = await mainWorkTree(git, options.cwd);
  return reopen(git, repoRoot, options.path);
}

async function reopen(git: Git, repoRoot: string, path: string): Promise<Worktree> {
  const listed = await oneAtATimeIn(repoRoot, () =>
    gitOrThrow(git, ['worktree', 'list', '--porcelain', '-z'], repoRoot, 'Cannot list worktrees'),
  );
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new WorktreeError(`${path} does not exist.`);
  }
  // Records are `worktree <path>`, `HEAD <sha>`, `branch <ref>` | `detached`, separated by an empty field.
  const records: string[][] = [[]];
  for (const field of listed.split('\0')) {
    if (field === '') records.push([]);
    else records[records.length - 1]?.push(field);
  }
  const record = records.find((fields) =>
    fields.some((f) => f.startsWith('worktree ') && f.slice(9) === real),
  );
  if (!record)
    throw new WorktreeError(`${path} is not a worktree of this repository (see git worktree list).`);
  if (real === realpathSync(repoRoot))
    throw new WorktreeError(`${path} is the repository's main working copy, not a separate worktree.`);
  const branchField = record.find((field) => field.startsWith('branch '));
  const branch = branchField ? branchField.slice('branch refs/heads/'.length) : '';
  const baseCommit = await gitOrThrow(git, ['rev-parse', 'HEAD'], real, 'Cannot read the worktree HEAD');
  return { path: real, branch, repoRoot, baseCommit, createdHere: false };
}

/** What removing the worktree would lose. */
export async function worktreeChanges(worktree: Worktree, env: Env): Promise<WorktreeChanges> {
  const git = gitIn(env);
  return {
    uncommittedFiles: await uncommittedFiles(git, worktree.path),
    unmergedCommits: await unmergedCommits(git, worktree.path, worktree.branch),
  };
}

/** One line on what a kept worktree holds: "2 uncommitted files (a.ts, b.ts) and 1 new commit". */
export function describeChanges(changes: WorktreeChanges): string {
  const parts: string[] = [];
  const files = changes.uncommittedFiles;
  if (files.length > 0) {
    const shown = files.slice(0, 3).join(', ') + (files.length > 3 ? ', …' : '');
    parts.push(`${files.length} uncommitted file${files.length === 1 ? '' : 's'} (${shown})`);
  }
  if (changes.unmergedCommits > 0)
    parts.push(`${changes.unmergedCommits} new commit${changes.unmergedCommits === 1 ? '' : 's'}`);
  return parts.length > 0 ? parts.join(' and ') : 'no changes';
}

/**
 * Ends a worktree by the rule: removed with its branch when unchanged, kept otherwise. With
 * `discard`, removed whatever it holds (ExitWorktree's `discard_changes`, the user's choice).
 * A worktree reopened from an earlier session is kept unless discarded.
 */
export async function finishWorktree(
  worktree: Worktree,
  env: Env,
  options: { discard?: boolean } = {},
): Promise<WorktreeOutcome> {
  const { path, branch } = worktree;
  const changes = await worktreeChanges(worktree, env);
  if (!options.discard) {
    if (hasChanges(changes)) return { kind: 'kept', path, branch, changes, reason: describeChanges(changes) };
    if (!worktree.createdHere)
      return { kind: 'kept', path, branch, changes, reason: 'it was made by an earlier session' };
  }
  const git = gitIn(env);
  const removeArgs = ['worktree', 'remove', ...(options.discard ? ['--force'] : []), path];
  const removed = await oneAtATimeIn(worktree.repoRoot, () => git(removeArgs, worktree.repoRoot));
  if (removed.code !== 0) {
    // Git refuses a worktree that changed since the check: keep it, as the rule says.
    const now = await worktreeChanges(worktree, env).catch(() => changes);
    return {
      kind: 'kept',
      path,
      branch,
      changes: now,
      reason: removed.stderr.trim() || describeChanges(now),
    };
  }
  // Only our own branch, and only while no commit would be lost (checked again: the worktree is gone).
  const onlyHere = options.discard
    ? 0
    : await unmergedCommits(git, worktree.repoRoot, branch, { withHead: false }).catch(() => 1);
  if (onlyHere === 0 && branch !== '')
    await oneAtATimeIn(worktree.repoRoot, () => git(['branch', '-D', branch], worktree.repoRoot));
  return { kind: 'removed', path, branch };
}
