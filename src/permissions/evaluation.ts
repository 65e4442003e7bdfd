/**
 * The verdict of rules and facts about one call, before mode and prompt: what a deny, ask or
 * allow rule says, whether the call is provably read-only or an edit inside the working
 * directories, and what to tell the person asked. Both the Bash and the other-tool evaluators
 * produce it; `createCanUseTool` turns it into a decision for the current mode.
 */
import type { FolderWalks } from './folder-walks';
import type { GitConfigSafety } from './git-config-safety';
import type { PathRoots } from './path-rules';
import type { ProtectedPaths, ProtectedWrite } from './protected-paths';
import type { RealPaths } from './real-paths';
import type { PermissionRule } from './types';

export type Evaluation = {
  denied?: { message: string; rule?: PermissionRule };
  askRule?: PermissionRule;
  /** Rules (or the read-only fast path) cover the whole call. */
  allowed: boolean;
  allowRule?: PermissionRule;
  /** Proven read-only, every path inside the working directories (or granted by a Read rule). */
  readOnly: boolean;
  /** Only reads, wherever (plan mode lets these through to the normal checks and denies the rest). */
  onlyReads: boolean;
  /** Only file edits and file-writing commands inside the working directories remain. */
  editsInside: boolean;
  /** A file tool's call whose path really lies in one of the session's scratch folders. */
  inScratchpad: boolean;
  /** Protected files the call writes that no lifting rule covers: always asks (protected-paths.ts). */
  protectedWrites: ProtectedWrite[];
  /** Reasons no classifier may decide this call (parse errors, destructive commands, …). */
  hardReasons: string[];
  warnings: string[];
  /** Why approval is needed, one short phrase each. */
  reasons: string[];
  /** Rules an "always allow" answer would add: exactly what is shown, nothing wider. */
  suggestions: string[];
};

export const emptyEvaluation = (): Evaluation => ({
  allowed: false,
  readOnly: false,
  onlyReads: false,
  editsInside: false,
  inScratchpad: false,
  protectedWrites: [],
  hardReasons: [],
  warnings: [],
  reasons: [],
  suggestions: [],
});

export type EvaluationEnv = {
  rules: readonly PermissionRule[];
  roots: PathRoots & { home: string };
  /** The project root and the added directories. */
  workingDirs: readonly string[];
  /** The session's scratch folders (`ToolPermissionContext.scratchpadDirectories`). */
  scratchpadDirs?: readonly string[];
  /** The session's protected-file list; the user folders under `roots.home` when absent. */
  protection?: ProtectedPaths;
  /** Resolves symlinks (one per decision: it remembers what it looked up). */
  paths: RealPaths;
  /** The session's walks of folders searched recursively, kept for the turn (default: none kept). */
  walks?: FolderWalks;
  /** The session's check of git repository configuration (read-only git needs it). */
  gitConfig?: GitConfigSafety;
};

/** The Read or Edit rules of one behaviour that name paths, policy first. */
export const pathRules = (
  rules: readonly PermissionRule[],
  tool: 'Read' | 'Edit',
  behavior: PermissionRule['behavior'],
) =>
  byPrecedence(
    rules.filter((r) => r.toolName === tool && r.behavior === behavior && r.ruleContent !== undefined),
  );

/** Policy rules first, so a reason names the policy when both a policy and a user rule match. */
export function byPrecedence(rules: readonly PermissionRule[]): PermissionRule[] {
  return [...rules].sort(
    (a, b) => Number(b.source === 'policySettings') - Number(a.source === 'policySettings'),
  );
}

export function describeRule(rule: PermissionRule): string {
  const { malformed } = rule;
  if (malformed) {
    const origin = malformed.file ? `${rule.source}, ${malformed.file}` : rule.source;
    const scope = rule.toolName === '*' ? 'every tool' : `all of ${rule.toolName}`;
    const verb = rule.behavior === 'deny' ? 'denies' : 'asks before';
    return `${JSON.stringify(malformed.text)} (${origin}), which is malformed (${malformed.problem}) and so ${verb} ${scope} until it is fixed`;
  }
  const { copyOf } = rule;
  if (copyOf)
    return `${rule.toolName}(${copyOf.ruleContent}) (${rule.source}, applied to its copy in the worktree ${copyOf.worktree})`;
  return `${rule.ruleContent === undefined ? rule.toolName : `${rule.toolName}(${rule.ruleContent})`} (${rule.source})`;
}
