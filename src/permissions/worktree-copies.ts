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
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { isWithin, type PathRoots, resolvePathPattern, withLiteralBase } from './path-rules';
import { residuals } from './search-exclusions';
import type { PermissionRule } from './types';

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

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The main working copy `root` is a linked worktree of, from git's own files: `root/.git` says
 * `gitdir: <common>/worktrees/<name>`, that folder's `gitdir` names `root/.git` back, and its
 * `commondir` leads to the main repository's `.git`. Undefined for anything else.
 */
export function mainWorkingCopyOf(root: string): string | undefined {
  const link = readText(join(root, '.git'))?.match(/^gitdir: (.+)$/)?.[1];
  if (!link) return undefined;
  const gitDir = resolve(root, link);
  const back = readText(join(gitDir, 'gitdir'));
  const rootReal = realOrUndefined(root);
  if (!back || !rootReal || realOrUndefined(dirname(resolve(gitDir, back))) !== rootReal) return undefined;
  const common = realOrUndefined(resolve(gitDir, readText(join(gitDir, 'commondir')) ?? '../..'));
  if (!common?.endsWith('/.git')) return undefined;
  const main = dirname(common);
  return main === rootReal ? undefined : main;
}

/** The rule's twins below `copy`, for the part of its absolute pattern below `original`. */
function twins(rule: PermissionRule, original: string, copy: string, home: string): PermissionRule[] {
  const content = rule.ruleContent as string;
  const at = (root: string): PathRoots & { home: string } => ({ projectRoot: root, cwd: root, home });
  const fromOriginal = withLiteralBase(resolvePathPattern(content, rule.source, at(original)));
  const fromCopy = withLiteralBase(resolvePathPattern(content, rule.source, at(copy)));
  // A rule relative to the project or the working directory already follows the worktree.
  if (!fromOriginal.anchored || fromOriginal.base !== fromCopy.base) return [];
  const { base, pattern } = fromOriginal;
  let patterns: string[];
  if (isWithin(base, original)) {
    const below = relative(original, base).split('\\').join('/');
    patterns = [below === '' ? pattern : `${below}/${pattern}`];
  } else if (isWithin(original, base)) {
    const parts = pattern.split('/');
    const sub = relative(base, original).split('\\').join('/').split('/');
    patterns = residuals(pattern, sub).map((j) => (j === -1 ? '**' : parts.slice(j).join('/')));
  } else return [];
  return patterns.map((rest) => ({
    ...rule,
    ruleContent: `/${copy}/${rest}`,
    copyOf: rule.copyOf ?? { ruleContent: content, worktree: copy },
  }));
}

/**
 * `rules` and, when `roots.projectRoot` is a linked git worktree, the twins of its absolute
 * Read and Edit deny and ask rules mapped onto it.
 */
export function withWorktreeCopies(
  rules: readonly PermissionRule[],
  roots: { projectRoot: string; home: string },
): PermissionRule[] {
  const guards = rules.filter(
    (rule) =>
      rule.behavior !== 'allow' && rule.ruleContent !== undefined && PATH_RULE_NAMES.has(rule.toolName),
  );
  if (guards.length === 0) return [...rules];
  const original = mainWorkingCopyOf(roots.projectRoot);
  if (original === undefined) return [...rules];
  const copy = realOrUndefined(roots.projectRoot) ?? roots.projectRoot;
  return [...rules, ...guards.flatMap((rule) => twins(rule, original, copy, roots.home))];
}
