/**
 * Ordering and labelling of file lists, shared by Glob and Grep's files mode: the files touched
 * most recently are usually the ones the model is working on, so they come first.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';

/** Sorts absolute paths newest first by mtime; ties (and unreadable files) fall back to the path. */
export async function sortNewestFirst(paths: readonly string[]): Promise<string[]> {
  const withTimes = await Promise.all(
    paths.map(async (path) => {
      try {
        return { path, mtime: (await stat(path)).mtimeMs };
      } catch {
        // Deleted between listing and sorting: keep it, last.
        return { path, mtime: Number.NEGATIVE_INFINITY };
      }
    }),
  );
  withTimes.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return withTimes.map((entry) => entry.path);
}

/** Relative to `cwd` when the path is inside it (shorter for the model), else absolute. */
export function pathForModel(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}
