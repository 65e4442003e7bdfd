/**
 * The words permission rules and modes are written in, shared by the settings that hold them
 * (`config/`) and the pipeline that applies them (`permissions/`). They live below both so that
 * config never imports upward; the rest of the permission types stay in `permissions/types.ts`.
 */

export const PERMISSION_MODES = [
  'default',
  'acceptEdits',
  'plan',
  'bypassPermissions',
  'dontAsk',
  'auto',
] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export type RuleBehavior = 'allow' | 'deny' | 'ask';
/**
 * Where a rule or setting came from, in Claude Code's names: `flagSettings` is the `--settings`
 * file or JSON (the SDK's `settings` option), `cliArg` the rule flags (`--allowedTools`,
 * `--disallowedTools`), `session` an answer given in this session.
 */
export type RuleSource =
  | 'policySettings'
  | 'userSettings'
  | 'projectSettings'
  | 'localSettings'
  | 'flagSettings'
  | 'cliArg'
  | 'session';
/** The settings files an approval can be saved in ("don't ask again"), named as the SDK names them. */
export type SavedRuleDestination = Extract<RuleSource, 'userSettings' | 'projectSettings' | 'localSettings'>;

/** A parsed rule: `Bash(npm test:*)` is `{toolName:'Bash', ruleContent:'npm test:*'}`; `Read` has no content. */
export type PermissionRule = {
  toolName: string;
  ruleContent?: string;
  behavior: RuleBehavior;
  source: RuleSource;
  /**
   * Set when this whole-tool rule stands in for a deny or ask rule that could not be read
   * (rule-problems.ts); `toolName` is then `*` when not even the tool name could be read.
   */
  malformed?: { text: string; problem: string; file?: string };
  /**
   * Set when this rule is an absolute rule mapped onto a git worktree's copy of the files it names
   * (permissions/worktree-copies.ts): the rule as written, and the worktree.
   */
  copyOf?: { ruleContent: string; worktree: string };
};
