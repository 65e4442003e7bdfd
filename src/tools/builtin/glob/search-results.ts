/**
 * Ordering and labelling of file lists, shared by Glob and Grep's files mode: the files touched
 * most recently are usually the ones the model is working on, so they come first.
 */
import { statSync } from 'node:fs';
import { relativeWithin } from '../../../lib/path-within';

/** Files stat'ed between two yields to the event loop. */
const STAT_BATCH = 1000;

function mtimeOf(path: string): number {
  try {
    // Missing (deleted between listing and sorting) or unreadable: kept, last.
    return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Number.NEGATIVE_INFINITY;
  } catch {
    return Number.NEGATIVE_INFINITY;
  }
}

/**
 * Sorts absolute paths newest first by mtime; ties (and unreadable files) fall back to the path.
 * The stats are synchronous, in batches with a yield between them: a promise and a thread-pool
 * round trip per file (fs/promises) made 50,000 stats take about 1 s, against about 0.15 s here.
 */
export async function sortNewestFirst(paths: readonly string[]): Promise<string[]> {
  const withTimes: { path: string; mtime: number }[] = [];
  for (let i = 0; i < paths.length; i++) {
    if (i > 0 && i % STAT_BATCH === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const path = paths[i] as string;
    withTimes.push({ path, mtime: mtimeOf(path) });
  }
  withTimes.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return withTimes.map((entry) => entry.path);
}

/** Relative to `cwd` when the path is inside it (shorter for the model), else absolute. */
export function pathForModel(path: string, cwd: string): string {
  return relativeWithin(cwd, path) || path;
}
