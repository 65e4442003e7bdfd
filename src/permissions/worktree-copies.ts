/**
 * Absolute Read and Edit deny and ask rules inside a git worktree of the project. A rule written
 * with an absolute path (`Read(//abs/proj/sec/**)`, `Edit(~/proj/sec/**)`) names files of the
 * main working copy; a worktree — an agent's `isolation: worktree`, EnterWorktree, `--worktree` —
 * holds copies of them at another path, which the rule as written does not reach, while a
 * project-relative rule does (it resolves against the worktree). So when the project root is a
 * linked worktree (its `.git` file and git's link back from the main repository agree), each such
 * rule gets a twin mapped onto the worktree: the part of its pattern below the main working copy,
 * anchored at the worktree root. The twin covers only paths inside the worktree, so nothing
 * elsewhere is denied that was not before; allow rules are never mapped.
 */
import { realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LinkedWorktrees, linkedWorktreesOf, mainWorkingCopyOf } from './linked-worktrees';
import {
  isWithin,
  type PathRoots,
  type ResolvedPattern,
  resolvePathPattern,
  withLiteralBase,
} from './path-rules';
import { diskPathFs, RealPaths } from './real-paths';
import { residuals } from './search-exclusions';
import type { PermissionRule } from './types';

export { mainWorkingCopyOf };

const PATH_RULE_NAMES: ReadonlySet<string> = new Set([
  'Read',
  'Edit',
  'Write',
  'MultiEdit',
  'NotebookEdit',
  'Glob',
  'Grep',
  'LS',
  'NotebookRead',
]);

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** Where `path` really leads; a missing tail is kept as written below its real parent. */
function realSpelling(path: string): string {
  return new RealPaths(diskPathFs).of(path)?.real ?? path;
}

/**
 * A resolved pattern's part below `original` (a real path), anchored at `copy` instead. The
 * pattern's literal folders are taken as their real path first, so a rule written through a
 * symlinked spelling of the repository (`//tmp/link/sec/**` for `/real/proj`) maps as well.
 * Empty when the pattern names nothing inside `original`; the result covers only paths inside
 * `copy`, so nothing elsewhere is covered that was not before.
 */
export function patternOnCopy(resolved: ResolvedPattern, original: string, copy: string): ResolvedPattern[] {
  return patternOnCopies(resolved, original)(copy);
}

/**
 * patternOnCopy for many copies of one original: the pattern's real base (a lookup of each of
 * its folders) is found once, not once per copy.
 */
export function patternOnCopies(
  resolved: ResolvedPattern,
  original: string,
): (copy: string) => ResolvedPattern[] {
  const literal = withLiteralBase(resolved);
  const base = realSpelling(literal.base);
  const { pattern, anchored } = literal;
  if (isWithin(base, original)) {
    const below = relative(original, base).split('\\').join('/');
    if (!anchored) return (copy) => [{ base: below === '' ? copy : join(copy, below), pattern, anchored }];
    return (copy) => [{ base: copy, pattern: below === '' ? pattern : `${below}/${pattern}`, anchored }];
  }
  if (!isWithin(original, base)) return () => [];
  // A pattern without a slash matches at any depth, so below `original` as it is.
  if (!anchored) return (copy) => [{ base: copy, pattern, anchored }];
  const parts = pattern.split('/');
  const sub = relative(base, original).split('\\').join('/').split('/');
  const tails = residuals(pattern, sub).map((j) => (j === -1 ? '**' : parts.slice(j).join('/')));
  return (copy) => tails.map((tail) => ({ base: copy, pattern: tail, anchored: true }));
}

/**
 * The rule's twins below each copy, for the part of its absolute pattern below `original`; a
 * function of the copy, so what depends only on the rule and the original is worked out once.
 */
function twinsOf(rule: PermissionRule, original: string, home: string): (copy: string) => PermissionRule[] {
  const content = rule.ruleContent as string;
  const at = (root: string): PathRoots & { home: string } => ({ projectRoot: root, cwd: root, home });
  const fromOriginal = withLiteralBase(resolvePathPattern(content, rule.source, at(original)));
  if (!fromOriginal.anchored) return () => [];
  const onCopy = patternOnCopies(fromOriginal, original);
  return (copy) => {
    // A rule relative to the project or the working directory already follows the worktree.
    const fromCopy = withLiteralBase(resolvePathPattern(content, rule.source, at(copy)));
    if (fromOriginal.base !== fromCopy.base) return [];
    return onCopy(copy).map((twin) => ({
      ...rule,
      ruleContent: `/${twin.base}/${twin.pattern}`,
      copyOf: rule.copyOf ?? { ruleContent: content, worktree: copy },
    }));
  };
}

/**
 * The copies of the project Yoke learnt of from other data than git's: a WorktreeCreate hook's
 * folder (its output names the path, and Yoke knows which project it was made for). One per
 * session, on SessionServices; paths are kept as real paths.
 */
export class KnownCopies {
  private readonly originals = new Map<string, string>();
  /** The session's proofs of git's linked worktrees, kept while their data is unchanged. */
  readonly linked = new LinkedWorktrees();

  /**
   * Records `copy` as a copy of the project at `original` (of its main working copy when that is
   * a linked worktree itself). A folder that is the project or holds it is no copy of it: mapping
   * onto it would cover the original's own neighbours, so it is refused.
   */
  add(copy: string, original: string): boolean {
    const realCopy = realSpelling(copy);
    const realOriginal = mainWorkingCopyOf(original) ?? realSpelling(original);
    if (isWithin(realOriginal, realCopy)) return false;
    this.originals.set(realCopy, realOriginal);
    return true;
  }

  remove(copy: string): void {
    this.originals.delete(realSpelling(copy));
  }

  /** The project `root` is a known copy of. */
  originalOf(root: string): string | undefined {
    return this.originals.get(realSpelling(root));
  }

  entries(): Array<{ original: string; copy: string }> {
    return [...this.originals].map(([copy, original]) => ({ copy, original }));
  }
}

/** What `root` is a copy of: a known copy's project, or a linked worktree's main working copy. */
export function originalOf(root: string, copies?: KnownCopies): string | undefined {
  return copies?.originalOf(root) ?? mainWorkingCopyOf(root);
}

/**
 * `rules` and the twins of their absolute Read and Edit deny and ask rules mapped onto each copy
 * of the project: `roots.projectRoot` itself when it is a linked git worktree or a known copy,
 * and the other linked worktrees and known copies of the same project, whose files a call made
 * from here reaches too (a kept agent worktree below `.yoke/worktrees`).
 */
export function withWorktreeCopies(
  rules: readonly PermissionRule[],
  roots: { projectRoot: string; home: string; copies?: KnownCopies },
): PermissionRule[] {
  const guards = rules.filter(
    (rule) =>
      rule.behavior !== 'allow' && rule.ruleContent !== undefined && PATH_RULE_NAMES.has(rule.toolName),
  );
  if (guards.length === 0) return [...rules];
  const pairs = copiesOfProject(roots.projectRoot, roots.copies);
  if (pairs.length === 0) return [...rules];
  const perOriginal = new Map<string, Array<(copy: string) => PermissionRule[]>>();
  const twinMakers = (original: string) => {
    let makers = perOriginal.get(original);
    if (!makers) {
      makers = guards.map((rule) => twinsOf(rule, original, roots.home));
      perOriginal.set(original, makers);
    }
    return makers;
  };
  return [
    ...rules,
    ...pairs.flatMap(({ original, copy }) => twinMakers(original).flatMap((twins) => twins(copy))),
  ];
}

/**
 * Every copy of the project at `projectRoot` whose files a command may reach: the linked
 * worktrees of its repository, as git's own files list them (each proven by its link back, as
 * `mainWorkingCopyOf` does), and the known copies. When `projectRoot` is itself a linked worktree,
 * the main working copy is the original of all of them.
 */
export function copiesOfProject(
  projectRoot: string,
  copies?: KnownCopies,
): Array<{ original: string; copy: string }> {
  const main = originalOf(projectRoot, copies) ?? realOrUndefined(projectRoot) ?? projectRoot;
  const found = new Map<string, string>();
  for (const root of linkedWorktreesOf(main, copies?.linked)) found.set(root, main);
  for (const entry of copies?.entries() ?? []) found.set(entry.copy, entry.original);
  return [...found].map(([copy, original]) => ({ copy, original }));
}
