/**
 * The linked worktrees of a repository, as git's own files list them, for the deny rules that
 * must hold in every copy of the project (worktree-copies.ts). Every permission decision under an
 * absolute deny rule asks for them, and each entry of `.git/worktrees` costs several reads and
 * real-path lookups to prove: a repository planted with 3000 entries made each decision take
 * ~700 ms. So a session keeps what it proved, per entry, and proves an entry again only when
 * the data it was proven from changed: the entry's `gitdir` file or the `.git` file of the
 * folder it names (their inode, size, change and modification times). A new entry is a new name;
 * a removed one is gone from the listing. What was never proven is never taken as a copy.
 *
 * All reads are of regular files under a small bound: a planted FIFO named `gitdir` or `.git`
 * would otherwise hang every decision.
 */
import { readdirSync, realpathSync, type Stats, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readRegularTextSync } from '../lib/regular-file-text';

/** More than git writes in any of these files (a path and a newline). */
const GIT_LINK_BYTES = 64 * 1024;

function readText(path: string): string | undefined {
  try {
    return readRegularTextSync(path, GIT_LINK_BYTES).trim();
  } catch {
    return undefined;
  }
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The main working copy `root` is a linked worktree of, from git's own files: `root/.git` says
 * `gitdir: <common>/worktrees/<name>`, that folder's `gitdir` names `root/.git` back, and its
 * `commondir` leads to the main repository's `.git`. Undefined for anything else.
 */
export function mainWorkingCopyOf(root: string): string | undefined {
  const link = readText(join(root, '.git'))?.match(/^gitdir: (.+)$/)?.[1];
  if (!link) return undefined;
  const gitDir = resolve(root, link);
  const back = readText(join(gitDir, 'gitdir'));
  const rootReal = realOrUndefined(root);
  if (!back || !rootReal || realOrUndefined(dirname(resolve(gitDir, back))) !== rootReal) return undefined;
  const common = realOrUndefined(resolve(gitDir, readText(join(gitDir, 'commondir')) ?? '../..'));
  if (!common?.endsWith('/.git')) return undefined;
  const main = dirname(common);
  return main === rootReal ? undefined : main;
}

function signatureOf(info: Stats | undefined): string {
  return info ? `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}` : '-';
}

/**
 * What an entry was proven to be, and the data the proof rests on: its `gitdir` file (which
 * `git worktree move` rewrites in place), the `.git` path that file names, and that `.git` file
 * (made or removed with the worktree). `root` is the worktree's real root, undefined for no copy.
 */
type Proven = { gitdir: string; back: string | undefined; dotGit: string; root: string | undefined };

/** The worktree an entry of `<main>/.git/worktrees` names, proven from git's files; undefined for none. */
function proveEntry(main: string, entry: string): string | undefined {
  const back = readText(join(entry, 'gitdir'));
  if (!back) return undefined;
  const root = dirname(resolve(entry, back));
  return mainWorkingCopyOf(root) === main ? (realOrUndefined(root) ?? root) : undefined;
}

/** One session's proven entries, per repository; on SessionServices through KnownCopies. */
export class LinkedWorktrees {
  private readonly proven = new Map<string, Map<string, Proven>>();

  /** The real roots of `main`'s linked worktrees, each proven by its link back. */
  of(main: string): string[] {
    const before = this.proven.get(main);
    const now = new Map<string, Proven>();
    const roots: string[] = [];
    for (const name of listEntries(main)) {
      const proven = this.check(main, join(main, '.git', 'worktrees', name), before?.get(name));
      now.set(name, proven);
      if (proven.root !== undefined) roots.push(proven.root);
    }
    this.proven.set(main, now);
    return roots;
  }

  /** The entry's proof: the one known when its data is unchanged (two stats), else made anew. */
  private check(main: string, entry: string, known: Proven | undefined): Proven {
    const gitdirFile = join(entry, 'gitdir');
    const gitdir = signatureOf(statSync(gitdirFile, { throwIfNoEntry: false }));
    const back = known?.gitdir === gitdir ? known.back : backLinkOf(gitdirFile);
    const dotGit = back === undefined ? '-' : signatureOf(statSync(back, { throwIfNoEntry: false }));
    if (known && known.gitdir === gitdir && known.dotGit === dotGit) return known;
    return { gitdir, back, dotGit, root: proveEntry(main, entry) };
  }
}

/** The `.git` path an entry's `gitdir` file names. */
function backLinkOf(gitdirFile: string): string | undefined {
  const text = readText(gitdirFile);
  return text ? resolve(dirname(gitdirFile), text) : undefined;
}

function listEntries(main: string): string[] {
  try {
    return readdirSync(join(main, '.git', 'worktrees'));
  } catch {
    // No linked worktrees (or no repository).
    return [];
  }
}

/** `main`'s linked worktrees, through the session's proofs when there is a session. */
export function linkedWorktreesOf(main: string, cache?: LinkedWorktrees): string[] {
  if (cache) return cache.of(main);
  return listEntries(main).flatMap((name) => proveEntry(main, join(main, '.git', 'worktrees', name)) ?? []);
}
