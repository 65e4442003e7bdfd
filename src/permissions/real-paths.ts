/**
 * Where a path really leads: symlinks followed component by component the way the kernel does,
 * including dangling links (a write through `link → /etc/x` creates `/etc/x`) and a `..` after a
 * link (`link/../x` is the link target's parent). A missing tail is kept as written, below the
 * real path of its nearest existing parent, so a new file in a new folder resolves too.
 *
 * All filesystem access goes through `PathFs`, so permission decisions can run against the disk
 * or against a fixed fake (the rules corpus) without the matchers ever touching it.
 */
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { isAbsolute } from 'node:path';

export type EntryKind = 'file' | 'dir' | 'symlink' | 'other';

/** The few filesystem questions path decisions ask. Every call is synchronous and cheap. */
export type PathFs = {
  /** The entry itself (a symlink is reported as one); undefined when it does not exist. */
  kind(path: string): EntryKind | undefined;
  readlink(path: string): string | undefined;
  /** Names and kinds in a folder (symlinks not followed); undefined when it cannot be listed. */
  list(dir: string): Array<{ name: string; kind: EntryKind }> | undefined;
};

function kindOf(entry: { isSymbolicLink(): boolean; isDirectory(): boolean; isFile(): boolean }): EntryKind {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isDirectory()) return 'dir';
  return entry.isFile() ? 'file' : 'other';
}

export const diskPathFs: PathFs = {
  kind(path) {
    try {
      const stats = lstatSync(path, { throwIfNoEntry: false });
      return stats ? kindOf(stats) : undefined;
    } catch {
      // ENOTDIR (a file used as a folder), EACCES: nothing the kernel would open here either.
      return undefined;
    }
  },
  readlink(path) {
    try {
      return readlinkSync(path);
    } catch {
      return undefined;
    }
  },
  list(dir) {
    try {
      return readdirSync(dir, { withFileTypes: true }).map((entry) => ({
        name: entry.name,
        kind: kindOf(entry),
      }));
    } catch {
      return undefined;
    }
  },
};

/** A filesystem where nothing exists: every path resolves to itself. */
export const emptyPathFs: PathFs = {
  kind: () => undefined,
  readlink: () => undefined,
  list: () => undefined,
};

/** Linux gives up after 40 links in one lookup (ELOOP); so do we, and then nothing is proven. */
const MAX_LINKS = 40;

export type RealPath = {
  /** The absolute path the kernel would reach. */
  real: string;
  /** Every symlink passed on the way (their own real locations): deny rules on a link hold too. */
  links: string[];
};

const join = (dir: string, name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`);
const parentOf = (dir: string) => {
  const slash = dir.lastIndexOf('/');
  return slash <= 0 ? '/' : dir.slice(0, slash);
};

/**
 * Resolves paths through one `PathFs`, remembering what it learnt. Make one per decision (or per
 * tool call): the memo must not outlive changes on disk.
 */
export class RealPaths {
  private readonly memo = new Map<string, RealPath | null>();

  constructor(readonly fs: PathFs) {}

  /** The real path of an absolute, already normalized path (the file tools' view). */
  of(path: string): RealPath | undefined {
    return this.from('/', path);
  }

  /**
   * The real path of `raw` as the kernel resolves it from the folder `start` (absolute): `raw`
   * is taken component by component, so `link/../x` leaves through the link's target.
   * Undefined when the lookup would fail with too many links.
   */
  from(start: string, raw: string): RealPath | undefined {
    const key = `${start}\0${raw}`;
    const known = this.memo.get(key);
    if (known !== undefined) return known ?? undefined;
    const result = this.walk(start, raw);
    this.memo.set(key, result ?? null);
    return result;
  }

  private walk(start: string, raw: string): RealPath | undefined {
    const links: string[] = [];
    let current = '/';
    let pending = (isAbsolute(raw) ? raw : `${start}/${raw}`).split('/');
    let hops = 0;
    let missing = false;
    while (pending.length > 0) {
      const name = pending.shift() as string;
      if (name === '' || name === '.') continue;
      if (name === '..') {
        // The kernel would fail on `missing/..`; resolving on from the parent checks more, not less.
        current = parentOf(current);
        missing = false;
        continue;
      }
      const next = join(current, name);
      // Below a missing folder nothing exists: the rest is kept as written.
      const kind = missing ? undefined : this.fs.kind(next);
      if (kind !== 'symlink') {
        if (kind === undefined) missing = true;
        current = next;
        continue;
      }
      if (++hops > MAX_LINKS) return undefined;
      const target = this.fs.readlink(next);
      if (target === undefined) return undefined;
      links.push(next);
      if (isAbsolute(target)) current = '/';
      pending = [...target.split('/'), ...pending];
    }
    return { real: current, links };
  }
}
