/**
 * Path decisions on resolved paths. A path reaches a file under several spellings: as written,
 * through each symlink on the way, and as its real path. Deny and ask rules hold when any
 * spelling matches (a deny on `./.env` stops `link-to-env`; a deny on a link still holds for the
 * link); allow rules and "inside the working directories" must hold for the real path, compared
 * with the real paths of the roots and of each rule's folder (the project may live below a
 * symlinked folder).
 */
import { relative } from 'node:path';
import type { EvaluationEnv } from './evaluation';
import {
  globToRegExp,
  isWithin,
  pathMatchesPattern,
  type ResolvedPattern,
  resolvePathPattern,
  withLiteralBase,
} from './path-rules';
import type { RealPath, RealPaths } from './real-paths';
import type { PermissionRule, RuleBehavior } from './types';

export type PathFamily = 'Read' | 'Edit';

/** One path a call touches: as written (absolute, normalized) and where it really leads. */
export type SpelledPath = {
  path: string;
  /** Undefined when the lookup fails (a symlink loop): then nothing about it is proven. */
  resolved?: RealPath;
};

/** A path rule against the roots as written, with literal folders in the base, and its real base. */
type CompiledRule = { written: ResolvedPattern; literal: ResolvedPattern; real: ResolvedPattern };

export class PathPolicy {
  private readonly compiled = new Map<PermissionRule, CompiledRule>();
  private realDirs?: string[];

  constructor(
    private readonly env: EvaluationEnv,
    readonly paths: RealPaths,
  ) {}

  /** The real path of an absolute path, or the path itself when the lookup fails. */
  realOf(path: string): string {
    return this.paths.of(path)?.real ?? path;
  }

  spell(path: string): SpelledPath {
    const resolved = this.paths.of(path);
    return resolved ? { path, resolved } : { path };
  }

  private compile(rule: PermissionRule): CompiledRule {
    let entry = this.compiled.get(rule);
    if (!entry) {
      const written = resolvePathPattern(rule.ruleContent as string, rule.source, this.env.roots);
      const literal = withLiteralBase(written);
      entry = { written, literal, real: { ...literal, base: this.realOf(literal.base) } };
      this.compiled.set(rule, entry);
    }
    return entry;
  }

  /** The rule's pattern against the roots as written, and against its folder's real path. */
  patterns(rule: PermissionRule): { written: ResolvedPattern; real: ResolvedPattern } {
    const { written, real } = this.compile(rule);
    return { written, real };
  }

  /** Whether a deny or ask rule covers any spelling of the path. */
  coversAnySpelling(rule: PermissionRule, spelled: SpelledPath): boolean {
    const { written, real } = this.compile(rule);
    const spellings = [
      spelled.path,
      ...(spelled.resolved ? [spelled.resolved.real, ...spelled.resolved.links] : []),
    ];
    return spellings.some((p) => pathMatchesPattern(p, written) || pathMatchesPattern(p, real));
  }

  /** Whether an allow rule covers where the path really leads (never when that is unknown). */
  coversRealPath(rule: PermissionRule, spelled: SpelledPath): boolean {
    return (
      spelled.resolved !== undefined && pathMatchesPattern(spelled.resolved.real, this.compile(rule).real)
    );
  }

  /** The first `tool(...)` path rule of `behavior` that covers the path (policy rules first). */
  find(
    rules: readonly PermissionRule[],
    spelled: SpelledPath,
    behavior: RuleBehavior,
  ): PermissionRule | undefined {
    return rules.find((rule) =>
      behavior === 'allow' ? this.coversRealPath(rule, spelled) : this.coversAnySpelling(rule, spelled),
    );
  }

  /** The working directories (project root, added directories) as real paths. */
  workingDirsReal(): readonly string[] {
    this.realDirs ??= this.env.workingDirs.map((dir) => this.realOf(dir));
    return this.realDirs;
  }

  /** Inside the working directories: judged on the real path against the roots' real paths. */
  inside(spelled: SpelledPath): boolean {
    const real = spelled.resolved?.real;
    return real !== undefined && this.workingDirsReal().some((dir) => isWithin(real, dir));
  }

  /**
   * Inside one of the session's scratch folders: the real path against the folders' real paths,
   * so `scratch/../x` and a symlink in the scratchpad that leads out are outside.
   */
  inScratchpad(spelled: SpelledPath): boolean {
    const real = spelled.resolved?.real;
    const dirs = this.env.scratchpadDirs ?? [];
    return real !== undefined && dirs.some((dir) => isWithin(real, this.realOf(dir)));
  }

  /**
   * A fast test for many paths below one folder: whether `rule` covers `folder/rel` under the
   * folder's written or real spelling. It looks at that path only, not its ancestors: a walk
   * meets every folder before what it holds, and the folder itself was checked on its own.
   */
  belowTester(rule: PermissionRule, folder: SpelledPath): (rel: string) => boolean {
    const { written, real } = this.compile(rule);
    const tests: Array<(rel: string) => boolean> = [];
    const dirs = [folder.path, ...(folder.resolved ? [folder.resolved.real] : [])];
    for (const pattern of [written, real]) {
      const regex = globToRegExp(pattern.pattern, pattern.anchored);
      for (const dir of new Set(dirs)) {
        if (isWithin(dir, pattern.base)) {
          const prefix = relative(pattern.base, dir).split('\\').join('/');
          tests.push(prefix === '' ? (rel) => regex.test(rel) : (rel) => regex.test(`${prefix}/${rel}`));
        } else if (isWithin(pattern.base, dir)) {
          const lead = relative(dir, pattern.base).split('\\').join('/');
          const everything = pattern.pattern === '**';
          tests.push(
            (rel) =>
              (rel === lead && everything) ||
              (rel.startsWith(`${lead}/`) && regex.test(rel.slice(lead.length + 1))),
          );
        }
      }
    }
    return (rel) => tests.some((test) => test(rel));
  }

  /**
   * Whether `rule` could cover something below the folder `dir` (a cheap test before a walk):
   * the rule's folder and `dir` lie one inside the other, under some spelling of each.
   */
  mayCoverBelow(rule: PermissionRule, dir: SpelledPath): boolean {
    const { literal, real } = this.compile(rule);
    const dirs = [dir.path, ...(dir.resolved ? [dir.resolved.real] : [])];
    return [literal.base, real.base].some((base) => dirs.some((d) => isWithin(d, base) || isWithin(base, d)));
  }
}

/** A path for a message: relative to `cwd` when below it, else absolute. */
function display(path: string, cwd: string): string {
  return isWithin(path, cwd) && path !== cwd ? relative(cwd, path) : path;
}

/**
 * How to name a touched path in a message: as written, with the path it stands for when that
 * is not plain from the text (`.e*` → `.env`, `hostname` after `cd /etc`), and where a symlink
 * on the way really leads.
 */
export function describePath(text: string, spelled: SpelledPath, cwd: string): string {
  const real = spelled.resolved?.real;
  const path = display(spelled.path, cwd);
  if (real !== undefined && real !== spelled.path)
    return `${text} (through a symlink: ${display(real, cwd)})`;
  return text === path || text === spelled.path ? text : `${text} (${path})`;
}

/** `x is outside the project`, saying where a symlinked path really leads. */
export function outsideReason(text: string, spelled: SpelledPath, cwd: string): string {
  if (spelled.resolved === undefined) return `${text} passes through too many symlinks to resolve`;
  return `${describePath(text, spelled, cwd)} is outside the project`;
}
