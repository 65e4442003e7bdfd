/**
 * The folder a glob pattern searches: its leading literal folders taken out of the pattern
 * (`/etc/*` searches `/etc`, `../../x/**` searches `../../x`, `src/*.ts` searches `src`). The Glob
 * tool lists that folder, and the permission check judges it, so a pattern cannot reach past the
 * project boundary while its `path` stays inside.
 */
import { isAbsolute, resolve } from 'node:path';

const GLOB_CHARS = /[*?[\]{}\\]/;

/**
 * Splits `pattern` (taken against the folder `root`) into the folder to search and the rest.
 * The rest starts with `/` (anchored to that folder) whenever something was taken out; a
 * pattern without literal folders (`*.ts`, `**\/x`) is returned as it is.
 */
export function splitPatternBase(pattern: string, root: string): { base: string; pattern: string } {
  const absolute = isAbsolute(pattern);
  const segments = (absolute ? pattern.slice(1) : pattern).split('/');
  let firstGlob = segments.findIndex((segment) => GLOB_CHARS.test(segment));
  // No glob characters: the pattern names one file, so search its folder for exactly that name.
  if (firstGlob === -1) firstGlob = segments.length - 1;
  if (firstGlob <= 0 && !absolute) return { base: root, pattern };
  return {
    base: resolve(absolute ? '/' : root, ...segments.slice(0, Math.max(firstGlob, 0))),
    pattern: `/${segments.slice(Math.max(firstGlob, 0)).join('/')}`,
  };
}
