/**
 * Path handling shared by the file tools. Tools never refuse a path for being outside the
 * project (the permission layer decides); they only make it absolute and canonical so that
 * readFileState keys, permission rules and hooks all see the same string.
 */
import { readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, normalize, resolve, sep } from 'node:path';
import { relativeWithin } from '../../../lib/path-within';

/** Absolute, normalized path: `~` expanded, relative paths taken against `cwd`. */
export function resolveToolPath(input: string, cwd: string): string {
  let path = input;
  if (path === '~') path = homedir();
  else if (path.startsWith('~/') || path.startsWith(`~${sep}`)) path = homedir() + path.slice(1);
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  const normalized = normalize(absolute);
  // `normalize` keeps a trailing separator, which would make "a/" and "a" two state keys.
  return normalized.length > 1 && normalized.endsWith(sep) ? normalized.slice(0, -1) : normalized;
}

/** A short label for a path: relative to the process cwd when inside it, else as given. */
export function displayPath(path: string): string {
  if (!path || !isAbsolute(path)) return path;
  return relativeWithin(process.cwd(), path) || path;
}

const MAX_DIR_ENTRIES_TO_SCAN = 2000;

/**
 * Names in the missing file's folder that look like what was meant (same name ignoring case or
 * extension, or a small typo). Empty when the folder is missing or too big to scan cheaply.
 */
export async function suggestSimilarPaths(missingPath: string, max = 3): Promise<string[]> {
  const dir = dirname(missingPath);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  if (names.length > MAX_DIR_ENTRIES_TO_SCAN) return [];
  const wanted = basename(missingPath).toLowerCase();
  const wantedStem = stem(wanted);
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of names) {
    const lower = name.toLowerCase();
    let score: number;
    if (lower === wanted) score = 0;
    else if (stem(lower) === wantedStem) score = 1;
    else {
      const distance = editDistance(lower, wanted, 3);
      if (distance > Math.max(1, Math.min(3, Math.floor(wanted.length / 4)))) continue;
      score = 1 + distance;
    }
    scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  return scored.slice(0, max).map((entry) => resolve(dir, entry.name));
}

function stem(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** Levenshtein distance, giving up (returning `cap + 1`) once it must exceed `cap`. */
export function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > cap) return cap + 1;
    previous = current;
  }
  return previous[b.length]!;
}
