/**
 * Whether a path lies in a folder, judged by its spelling: the caller makes both absolute and
 * resolves symbolic links first where that matters (permissions do; a display label need not).
 * A name that merely starts with two dots (`..cache`) is inside; only a `..` segment leaves.
 */
import { isAbsolute, relative, sep } from 'node:path';

/** `path` relative to `dir`: '' for `dir` itself, undefined when `path` is outside it. */
export function relativeWithin(dir: string, path: string): string | undefined {
  const rel = relative(dir, path);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel;
}

/** `path` is `dir` or below it. */
export function isWithin(path: string, dir: string): boolean {
  return relativeWithin(dir, path) !== undefined;
}
