/**
 * Bounded walks of the folders a recursive search reads (`grep -r KEY .`, `rg KEY`), so deny
 * rules on any file below them can be checked before the search runs. A walk stops after
 * MAX_WALK_ENTRIES entries (the caller then asks), and its listing is kept for the rest of the
 * turn in a `FolderWalks` owned by the session's permission pipeline — never in a module.
 */
import { join } from 'node:path';
import { describeRule } from './evaluation';
import type { PathPolicy, SpelledPath } from './path-policy';
import type { EntryKind, RealPaths } from './real-paths';
import type { PermissionRule } from './types';

export const MAX_WALK_ENTRIES = 10_000;
/** Entries listed between two yields to the event loop. */
const YIELD_EVERY = 1000;

export type FolderEntry = {
  /** Relative to the walked folder, `/`-separated (through followed links: the link's name). */
  rel: string;
  /** Where it really is. */
  real: string;
  kind: EntryKind;
};

export type FolderListing = {
  entries: FolderEntry[];
  /** False when the walk stopped at MAX_WALK_ENTRIES: what lies beyond is unknown. */
  complete: boolean;
  /** When links are followed: each link met, with where it leads (undefined: a link loop). */
  links: Array<{ rel: string; target: string | undefined }>;
  /** Deny checks already made on this listing in the turn (keyed by the caller). */
  verdicts: Map<string, unknown>;
};

async function walk(dir: string, followLinks: boolean, paths: RealPaths): Promise<FolderListing> {
  const listing: FolderListing = { entries: [], complete: true, links: [], verdicts: new Map() };
  const queue: Array<{ real: string; rel: string }> = [{ real: dir, rel: '' }];
  const visited = new Set([dir]);
  let seen = 0;
  while (queue.length > 0) {
    const { real, rel } = queue.shift() as { real: string; rel: string };
    for (const entry of paths.fs.list(real) ?? []) {
      if (++seen > MAX_WALK_ENTRIES) {
        listing.complete = false;
        return listing;
      }
      if (seen % YIELD_EVERY === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      const childReal = real === '/' ? `/${entry.name}` : `${real}/${entry.name}`;
      listing.entries.push({ rel: childRel, real: childReal, kind: entry.kind });
      if (entry.kind === 'dir') queue.push({ real: childReal, rel: childRel });
      if (entry.kind !== 'symlink' || !followLinks) continue;
      const target = paths.from(real, entry.name)?.real;
      listing.links.push({ rel: childRel, target });
      if (target === undefined) continue;
      const kind = paths.fs.kind(target);
      // The file behind the link is read under the link's name.
      if (kind === 'file') listing.entries.push({ rel: childRel, real: target, kind });
      else if (kind === 'dir' && !visited.has(target)) {
        visited.add(target);
        queue.push({ real: target, rel: childRel });
      }
    }
  }
  return listing;
}

/** The walks of one session's current turn. */
export class FolderWalks {
  private turn: string | undefined;
  private readonly listings = new Map<string, Promise<FolderListing>>();

  /** Starts using the cache for `turnId`; a new turn (or none) forgets earlier walks. */
  beginTurn(turnId: string | undefined): void {
    if (turnId === undefined || turnId !== this.turn) this.listings.clear();
    this.turn = turnId;
  }

  /** Something may have changed on disk (a call that writes was allowed): walk again. */
  forget(): void {
    this.listings.clear();
  }

  /** The listing of the real folder `dir`, walked once per turn. */
  list(dir: string, followLinks: boolean, paths: RealPaths): Promise<FolderListing> {
    const key = `${followLinks ? 'L' : 'P'}${dir}`;
    let listing = this.listings.get(key);
    if (!listing) {
      listing = walk(dir, followLinks, paths);
      this.listings.set(key, listing);
    }
    return listing;
  }
}

/**
 * The first file below `folder` a rule covers. The answer is kept on the listing for the rest of
 * the turn: the same search again costs a lookup, not a pass over 10 000 entries.
 */
export function firstGuarded(
  listing: FolderListing,
  folder: SpelledPath,
  guards: readonly PermissionRule[],
  policy: PathPolicy,
): { rel: string; rule: PermissionRule } | undefined {
  if (guards.length === 0) return undefined;
  const key = `${folder.path}\0${guards.map(describeRule).join('\0')}`;
  const known = listing.verdicts.get(key) as { rel: string; index: number } | null | undefined;
  if (known !== undefined)
    return known ? { rel: known.rel, rule: guards[known.index] as PermissionRule } : undefined;
  const real = folder.resolved?.real ?? folder.path;
  const testers = guards.map((rule) => policy.belowTester(rule, folder));
  let found: { rel: string; index: number } | null = null;
  for (const entry of listing.entries) {
    // Below a followed link the real path is elsewhere: the full check takes every spelling.
    const plain = entry.real === join(real, entry.rel);
    const index = plain
      ? testers.findIndex((test) => test(entry.rel))
      : guards.findIndex((rule) =>
          policy.coversAnySpelling(rule, {
            path: join(folder.path, entry.rel),
            resolved: { real: entry.real, links: [] },
          }),
        );
    if (index >= 0) {
      found = { rel: entry.rel, index };
      break;
    }
  }
  listing.verdicts.set(key, found);
  return found ? { rel: found.rel, rule: guards[found.index] as PermissionRule } : undefined;
}
