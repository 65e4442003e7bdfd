/**
 * Which existing paths a set of deny patterns names, for the sandbox to mask. A literal pattern
 * (`~/.ssh`, `//etc/shadow`) is its own path; a glob (`**\/.env`, `secrets/*.pem`) needs a walk of
 * its folder. Walking the project before every command would cost more than the sandbox itself,
 * so the answer is kept with the modification time of every folder the walk read: a file created,
 * removed or renamed changes its folder's mtime, and only then is the walk redone. Revalidating is
 * one stat per folder.
 *
 * The walk skips `.git` and `node_modules` (a secret the user means is not in a package cache, and
 * their size would make every check slow) and stops at a fixed number of entries; a walk cut
 * short is reported so the caller can say the mask may be incomplete.
 */
import { type Dirent, lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathMatchesPattern, type ResolvedPattern, withLiteralBase } from '../permissions/path-rules';

const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['.git', 'node_modules']);
const MAX_ENTRIES = 50_000;

export type MaskedPath = { path: string; kind: 'dir' | 'file' };
export type MaskResult = { paths: readonly MaskedPath[]; truncated: boolean };

type Walk = { result: MaskResult; folders: Map<string, number> };

const isLiteral = (pattern: ResolvedPattern) => pattern.anchored && pattern.pattern === '**';

function kindOf(path: string): MaskedPath['kind'] | undefined {
  try {
    return statSync(path).isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}

function mtimeOf(path: string): number | undefined {
  try {
    return lstatSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function walk(pattern: ResolvedPattern): Walk {
  const folders = new Map<string, number>();
  const paths: MaskedPath[] = [];
  let seen = 0;
  let truncated = false;
  const visit = (dir: string) => {
    const mtime = mtimeOf(dir);
    if (mtime === undefined) return;
    folders.set(dir, mtime);
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) {
        truncated = true;
        return;
      }
      const path = join(dir, entry.name);
      if (pathMatchesPattern(path, pattern)) {
        paths.push({ path, kind: entry.isDirectory() ? 'dir' : 'file' });
        continue;
      }
      if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) visit(path);
    }
  };
  visit(pattern.base);
  return { result: { paths, truncated }, folders };
}

/** One session's cache of glob walks, keyed by the resolved pattern. */
export class DenyMasks {
  private readonly walks = new Map<string, Walk>();

  /** The existing paths `patterns` name right now. */
  resolve(patterns: readonly ResolvedPattern[]): MaskResult {
    const paths: MaskedPath[] = [];
    let truncated = false;
    for (const raw of patterns) {
      const pattern = withLiteralBase(raw);
      if (isLiteral(pattern)) {
        const kind = kindOf(pattern.base);
        if (kind) paths.push({ path: pattern.base, kind });
        continue;
      }
      const found = this.cachedWalk(pattern);
      paths.push(...found.paths);
      truncated ||= found.truncated;
    }
    return { paths, truncated };
  }

  private cachedWalk(pattern: ResolvedPattern): MaskResult {
    const key = `${pattern.anchored ? 'a' : 'u'}\0${pattern.base}\0${pattern.pattern}`;
    const cached = this.walks.get(key);
    if (cached && [...cached.folders].every(([dir, mtime]) => mtimeOf(dir) === mtime)) return cached.result;
    const fresh = walk(pattern);
    this.walks.set(key, fresh);
    return fresh.result;
  }
}
