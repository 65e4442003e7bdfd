/**
 * What the Grep and Glob tools leave out of a search because a `Read(...)` deny rule covers it:
 * ripgrep `--glob !…` exclusions, so a denied file is never opened, and a matcher for the
 * files ripgrep lists, so the tools can say how many were skipped.
 *
 * A rule `pattern` below `base` is translated relative to the folder searched (`root`): when
 * `base` lies inside `root` the pattern moves below the base's relative path; when `root` lies
 * inside `base` the leading segments of the pattern are matched against the path from `base` to
 * `root`, and what remains of the pattern is what applies inside `root`. Both are done for the
 * paths as written and for their real paths. ripgrep does not follow symlinks below the root,
 * so a listed file's real path is the root's real path plus its relative path.
 */
import { join, relative } from 'node:path';
import type { EvaluationEnv } from './evaluation';
import { PathPolicy } from './path-policy';
import { globToRegExp, isWithin, type PathRoots, type ResolvedPattern } from './path-rules';
import { type PathFs, RealPaths } from './real-paths';
import type { PermissionRule } from './types';

export type SearchExclusions = {
  /** `--glob` values, each `!…`, relative to the folder ripgrep runs in. */
  globs: string[];
  /** A deny rule covers the whole root: nothing may be searched. */
  everything?: PermissionRule;
  /** The rule that covers a file ripgrep listed (`rel` is relative to the root, `/`-separated). */
  deniedBy(rel: string): PermissionRule | undefined;
};

/** Escapes glob syntax in a literal path so ripgrep matches it as written. */
const escapeGlob = (path: string) => path.replace(/[*?[\]{}\\!]/g, '\\$&');
/** Rule patterns have no `{a,b}` alternation (a brace is literal there), ripgrep globs do. */
const literalBraces = (pattern: string) => pattern.replace(/(?<!\\)[{}]/g, '\\$&');

/**
 * The suffixes of an anchored `pattern` that can apply below `sub` (a folder path relative to
 * the pattern's base), as pattern segment indices; `-1` when the pattern already covers `sub`.
 */
export function residuals(pattern: string, sub: readonly string[]): number[] {
  const parts = pattern.split('/');
  const closure = (states: Set<number>) => {
    for (const j of [...states]) {
      for (let k = j; parts[k] === '**'; k++) states.add(k + 1);
    }
    return states;
  };
  let states = closure(new Set([0]));
  for (const segment of sub) {
    const next = new Set<number>();
    for (const j of states) {
      if (j >= parts.length) return [-1];
      const part = parts[j] as string;
      if (part === '**') next.add(j);
      else if (globToRegExp(part, true).test(segment)) next.add(j + 1);
    }
    states = closure(next);
    if (states.size === 0) return [];
  }
  return states.has(parts.length) ? [-1] : [...states];
}

/** The `!…` globs for one resolved rule against one spelling of the root. */
function translate(rule: ResolvedPattern, root: string, anchor: string): string[] | 'everything' {
  const { base, anchored } = rule;
  const pattern = literalBraces(rule.pattern);
  // A trailing `/**` also covers the folder (or file) itself in a rule; in a glob, excluding
  // that path does both.
  const place = (rest: string) => `!${anchor}${rest.replace(/\/\*\*$/, '')}`;
  if (isWithin(base, root)) {
    const prefix = relative(root, base).split('\\').join('/');
    if (prefix === '' && pattern === '**') return 'everything';
    const below = prefix === '' ? '' : `${escapeGlob(prefix)}/`;
    if (anchored) return [place(`${below}${pattern}`.replace(/^\*\*$/, ''))];
    return prefix === '' && anchor === '/' ? [`!${pattern}`] : [place(`${below}**/${pattern}`)];
  }
  if (!isWithin(root, base)) return [];
  const sub = relative(base, root).split('\\').join('/').split('/');
  if (!anchored) {
    // Any segment on the way to the root matching the name covers the whole root.
    if (sub.some((segment) => globToRegExp(pattern, true).test(segment))) return 'everything';
    return anchor === '/' ? [`!${pattern}`] : [place(`**/${pattern}`)];
  }
  const rests = residuals(pattern, sub);
  if (rests.includes(-1)) return 'everything';
  const parts = pattern.split('/');
  return rests.map((j) => place(parts.slice(j).join('/')));
}

export type SearchExclusionsInput = {
  rules: readonly PermissionRule[];
  roots: PathRoots & { home: string };
  /** The folder searched, absolute (as the tool resolved it). */
  root: string;
  /**
   * How ripgrep is given that folder: `.` when it runs in it, a relative path without `..` below
   * its cwd, or an absolute path (then ripgrep must run in `/`, where anchored globs start).
   */
  searchPath: string;
  fs: PathFs;
};

export function searchExclusions(input: SearchExclusionsInput): SearchExclusions {
  const denies = input.rules.filter(
    (rule) => rule.toolName === 'Read' && rule.behavior === 'deny' && rule.ruleContent !== undefined,
  );
  const paths = new RealPaths(input.fs);
  const env: EvaluationEnv = { rules: denies, roots: input.roots, workingDirs: [], paths };
  const policy = new PathPolicy(env, paths);
  const rootReal = policy.realOf(input.root);
  // Globs are anchored at ripgrep's cwd (`/x`), which strips itself from absolute paths.
  const searchPath = input.searchPath.replace(/^\.\/|\/+$/g, '');
  const anchor =
    searchPath === '.' || searchPath === '' ? '/' : `/${escapeGlob(searchPath.replace(/^\/+/, ''))}/`;
  const globs = new Set<string>();
  let everything: PermissionRule | undefined;
  for (const rule of denies) {
    const { written, real } = policy.patterns(rule);
    for (const [pattern, root] of [
      [written, input.root],
      [real, rootReal],
    ] as const) {
      const out = translate(pattern, root, anchor);
      if (out === 'everything') everything ??= rule;
      else for (const glob of out) globs.add(glob);
    }
  }
  const result: SearchExclusions = {
    globs: [...globs],
    deniedBy: (rel) =>
      denies.find((rule) =>
        policy.coversAnySpelling(rule, {
          path: join(input.root, rel),
          resolved: { real: join(rootReal, rel), links: [] },
        }),
      ),
  };
  if (everything) result.everything = everything;
  return result;
}
