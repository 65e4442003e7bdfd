/**
 * Path rules: `Read(...)` / `Edit(...)` specifiers are gitignore-style globs, resolved like this
 * (compat-surface §3.3):
 *   `//abs/path`  → the absolute path `/abs/path`
 *   `~/path`      → relative to the home directory
 *   `/path`       → relative to the root of the rule's source: the project root for project,
 *                   local, CLI and session rules; the home directory for user settings (the folder
 *                   that holds `.yoke/`, mirroring how project rules are not relative to `.yoke/`);
 *                   the filesystem root for managed policy
 *   `./path`, `path`, `*.txt`, `**\/x` → relative to the current working directory
 * As in gitignore, a pattern without a slash (`*.env`, `secrets`) matches at any depth below its
 * base, and a pattern that matches a directory covers everything inside it.
 */
import { homedir } from 'node:os';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { RuleSource } from './types';

export type PathRoots = { projectRoot: string; cwd: string; home?: string };

/** A rule's specifier made absolute: `pattern` (gitignore-style) is matched below `base`. */
export type ResolvedPattern = { base: string; pattern: string; anchored: boolean };

function sourceRoot(source: RuleSource, roots: PathRoots, home: string): string {
  if (source === 'userSettings') return home;
  if (source === 'policySettings') return '/';
  return roots.projectRoot;
}

export function resolvePathPattern(content: string, source: RuleSource, roots: PathRoots): ResolvedPattern {
  const home = roots.home ?? homedir();
  let base: string;
  let pattern: string;
  let anchored = true;
  if (content.startsWith('//')) [base, pattern] = ['/', content.slice(2)];
  else if (content === '~') [base, pattern] = [home, '**'];
  else if (content.startsWith('~/')) [base, pattern] = [home, content.slice(2)];
  else if (content.startsWith('/')) [base, pattern] = [sourceRoot(source, roots, home), content.slice(1)];
  else if (content.startsWith('./')) [base, pattern] = [roots.cwd, content.slice(2)];
  else {
    base = roots.cwd;
    pattern = content;
    anchored = pattern.replace(/\/+$/, '').includes('/');
  }
  pattern = pattern.replace(/\/+$/, '');
  // `..` segments in a pattern move the base instead of being matched literally.
  while (pattern.startsWith('../')) {
    base = resolve(base, '..');
    pattern = pattern.slice(3);
  }
  return { base, pattern: pattern === '' ? '**' : pattern, anchored };
}

// Process-wide on purpose: a compiled glob is a pure function of its text, the same for every
// session, and the patterns come from rules, so the map stays small.
const regexCache = new Map<string, RegExp>();

/** A glob as a regex over `/`-separated relative paths: `*` stays in a segment, `**` crosses them. */
export function globToRegExp(glob: string, anchored: boolean): RegExp {
  const key = `${anchored ? 'a' : 'u'}:${glob}`;
  const cached = regexCache.get(key);
  if (cached) return cached;
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] as string;
    // A trailing `/**` covers the folder itself too, so `Read(//etc/**)` lets Grep search `/etc`.
    if (ch === '/' && glob.slice(i) === '/**') {
      out += '(?:/.*)?';
      break;
    }
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        const slashAfter = glob[i + 2] === '/';
        out += slashAfter ? '(?:.*/)?' : '.*';
        i += slashAfter ? 2 : 1;
      } else out += '[^/]*';
    } else if (ch === '?') out += '[^/]';
    else if (ch === '[') {
      const close = glob.indexOf(']', i + 1);
      if (close < 0) out += '\\[';
      else {
        out += `[${glob
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else if (ch === '\\' && i + 1 < glob.length) {
      out += (glob[++i] as string).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    } else out += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  const regex = new RegExp(`^${anchored ? '' : '(?:.*/)?'}${out}$`, 's');
  regexCache.set(key, regex);
  return regex;
}

/** Whether the absolute `path` is matched by a `Read(...)`/`Edit(...)` specifier. */
export function pathMatchesRule(
  path: string,
  content: string,
  source: RuleSource,
  roots: PathRoots,
): boolean {
  return pathMatchesPattern(path, resolvePathPattern(content, source, roots));
}

const GLOB_SYNTAX = /[*?[\\]/;

/**
 * The same pattern with its leading literal folders moved into the base (`//etc/ssh/*` is `*`
 * below `/etc/ssh`), so the base can be replaced by its real path: a rule then also matches
 * what a symlinked spelling of its folder leads to.
 */
export function withLiteralBase(resolved: ResolvedPattern): ResolvedPattern {
  if (!resolved.anchored) return resolved;
  const segments = resolved.pattern.split('/');
  let literal = 0;
  while (literal < segments.length && !GLOB_SYNTAX.test(segments[literal] as string)) literal++;
  if (literal === 0) return resolved;
  const rest = segments.slice(literal).join('/');
  return {
    base: resolve(resolved.base, ...segments.slice(0, literal)),
    pattern: rest === '' ? '**' : rest,
    anchored: true,
  };
}

/** Whether the absolute `path` is matched by a resolved specifier. Pure: no filesystem access. */
export function pathMatchesPattern(path: string, resolved: ResolvedPattern): boolean {
  const { base, pattern, anchored } = resolved;
  const rel = relative(base, path);
  if (rel === '') return pattern === '**';
  if (rel.startsWith('..') || isAbsolute(rel)) return false;
  const parts = rel.split(sep);
  const regex = globToRegExp(pattern, anchored);
  // The path itself, or any directory above it (a rule for a folder covers its contents).
  for (let n = parts.length; n >= 1; n--) {
    if (regex.test(parts.slice(0, n).join('/'))) return true;
  }
  return false;
}

/** `path` is `dir` or below it. */
export function isWithin(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

export function isInsideAny(path: string, dirs: readonly string[]): boolean {
  return dirs.some((dir) => isWithin(path, dir));
}

/** Resolves a path argument the way the shell and the file tools would (`~` is the home directory). */
export function resolveUserPath(path: string, cwd: string, home: string = homedir()): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return resolve(home, path.slice(2));
  return resolve(cwd, path);
}
