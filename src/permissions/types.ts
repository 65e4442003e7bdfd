/**
 * The shapes of permission decisions. The engine and tools depend on these; the rule engine,
 * modes and prompts that produce them live beside this file.
 */
import type { PermissionMode, PermissionRule, SavedRuleDestination } from '../lib/permission-vocabulary';
import type { AssistantMessage, Message } from '../session/messages';

// The rule and mode vocabulary lives below config/, which needs it too; the permission layer keeps
// one module for its types.
export {
  PERMISSION_MODES,
  type PermissionMode,
  type PermissionRule,
  type RuleBehavior,
  type RuleSource,
} from '../lib/permission-vocabulary';

export type ToolPermissionContext = {
  mode: PermissionMode;
  rules: readonly PermissionRule[];
  /** Directories outside cwd the user granted (`--add-dir`). */
  additionalDirectories: readonly string[];
  /**
   * The session's own scratch folders (coordinator mode's scratchpad): file tools read and write
   * there without a prompt, judged on the real path, so a symlink out of it is no way out.
   */
  scratchpadDirectories?: readonly string[];
  /**
   * Managed policy's `allowManagedPermissionRulesOnly`: only its allow rules allow, whatever
   * another source (or an "always allow" answer) adds; deny and ask rules still count from all.
   */
  managedRulesOnly?: boolean;
  /**
   * Modes the settings switch off (`disableBypassPermissionsMode`, `disableAutoMode`), each with
   * the one line that refuses a switch into it.
   */
  disabledModes?: Partial<Record<DisableableMode, string>>;
  /** `permissions.denyInsteadOfPrompting`: where a prompt would appear, the call is denied. */
  denyInsteadOfPrompting?: boolean;
};

/** The modes a setting can switch off. */
export type DisableableMode = 'bypassPermissions' | 'auto';

export const emptyPermissionContext = (mode: PermissionMode = 'default'): ToolPermissionContext => ({
  mode,
  rules: [],
  additionalDirectories: [],
});

/** Why a decision was made, for messages and `permission_denials`. */
export type DecisionReason =
  | { type: 'rule'; rule: PermissionRule }
  | { type: 'mode'; mode: PermissionMode }
  | { type: 'hook'; hookName: string; reason?: string }
  | { type: 'tool'; reason: string }
  | { type: 'prompt'; via: 'ui' | 'stdio' }
  | { type: 'classifier'; reason: string }
  | { type: 'headless'; reason: string }
  | { type: 'other'; reason: string };

export type PermissionDecision =
  | {
      behavior: 'allow';
      /** The input to run with; a hook or the user may have rewritten it. */
      updatedInput?: Record<string, unknown>;
      decisionReason?: DecisionReason;
      /**
       * "Always allow": rule strings to add for the rest of the session. A prompt returns the
       * `suggestions` it was shown (or a subset), never anything wider.
       */
      addRules?: string[];
      /** "Don't ask again": `addRules` are also saved in this settings file, for later sessions. */
      saveRulesTo?: SavedRuleDestination;
    }
  | {
      behavior: 'deny';
      message: string;
      /** End the whole turn, not just this call. */
      interrupt?: boolean;
      decisionReason?: DecisionReason;
    }
  | {
      behavior: 'ask';
      message: string;
      decisionReason?: DecisionReason;
    };

/** What a tool's own `checkPermissions` says before the pipeline's rules and mode. */
export type ToolPermissionResult =
  | { behavior: 'allow'; updatedInput?: Record<string, unknown> }
  | { behavior: 'deny'; message: string }
  | { behavior: 'ask'; message: string }
  /** No opinion: let rules and mode decide. */
  | { behavior: 'passthrough' };

/**
 * What a tool's calls touch, as permission rules judge them (compat-surface §3.3). The tool
 * declares it, so no layer tells tools apart by their names:
 * - `shell`: `input.command` is a command line; every command in it is judged (`Bash(...)` rules,
 *   the read-only tables, the paths it reads and writes, protected files).
 * - `file-read`: reads the file or folder in `file_path`, `notebook_path` or `path` (the working
 *   directory when none is given); `Read(...)` rules apply.
 * - `file-glob`: like `file-read`, but searches below the literal base of the glob in `pattern`.
 * - `file-edit`: writes the file in `file_path` or `notebook_path`; `Edit(...)` rules apply and
 *   protected files ask.
 * - `web`: fetches `input.url` from another machine; judged by host (`domain:` rules), and never
 *   allowed as a plain read.
 * - `none`: judged by its name, tier and read-only verdict alone.
 */
export type ToolAccess = 'shell' | 'file-read' | 'file-glob' | 'file-edit' | 'web' | 'none';

/** What the decision knows about a tool: its declared facts (structural, so this layer needs no tool module). */
export type PermissionTool = {
  name: string;
  aliases: readonly string[];
  tier: 'read' | 'write' | 'exec';
  isMcp: boolean;
  access: ToolAccess;
  /** The compact text an auto-mode classifier judges; empty means the input as JSON. */
  toAutoClassifierInput(input: Record<string, unknown>): string;
};

/**
 * Whether a shell call will run inside the session's OS sandbox (src/sandbox/), the same answer
 * the Bash tool acts on. Structural, so this layer needs no sandbox module.
 */
export type ShellSandboxJudge = {
  decide(input: {
    command: string;
    dangerouslyDisableSandbox?: boolean;
  }): Promise<{ sandboxed: true; confinement: string } | { sandboxed: false; why: string }>;
  /** `sandbox.autoAllowBashIfSandboxed`: a sandboxed call skips the prompt. */
  autoAllow: boolean;
  /** Whether `dangerouslyDisableSandbox` takes a call outside (sandbox active, and allowed). */
  honoursDisable(): Promise<boolean>;
};

/**
 * Where one call runs and under which rules, read from the call's own context when it is
 * decided — never from what the session or the turn started with: an earlier Bash `cd` moves
 * `cwd`, a mode switch mid-turn changes `permissionContext`, and a subagent brings its own.
 */
export type PermissionCallContext = {
  cwd: string;
  /** Paths under it (or an added directory) are inside the working directories. */
  projectRoot: string;
  permissionContext: ToolPermissionContext;
  /** The conversation so far: the auto-mode classifier reads the user's latest request from it. */
  messages: readonly Message[];
  /** The subagent that makes the call; absent on the main thread. */
  agentId?: string;
};

/**
 * Level 1: what the PreToolUse hooks decided. A rewritten input is not part of it: the runner
 * has already made it the call's input, so the rules judge what will actually run.
 */
export type HookPermissionDecision =
  | { behavior: 'allow'; decisionReason?: DecisionReason }
  | { behavior: 'deny'; message: string; decisionReason?: DecisionReason }
  | { behavior: 'ask'; message: string; decisionReason?: DecisionReason };

/** An auto-mode classifier's answer: it may allow, or hand the call on to a person. */
export type ClassifierVerdict = { behavior: 'allow' | 'ask'; reason: string };

/** A classification started before the PreToolUse hooks (seed 001 step 4b); cancel it when unused. */
export type SpeculativeClassification = { result: Promise<ClassifierVerdict>; cancel(): void };

/** The facts of one call that the permission decision weighs; the tool runner gathers them. */
export type CanUseToolRequest = {
  tool: PermissionTool;
  input: Record<string, unknown>;
  toolUseId: string;
  context: PermissionCallContext;
  /** Level 1: what a PreToolUse hook decided. `allow` skips the prompt but not a deny rule. */
  hookDecision?: HookPermissionDecision;
  /** The tool's own `checkPermissions`: its deny is final, its ask forces a prompt. */
  toolPermission: ToolPermissionResult;
  isReadOnly: boolean;
  /** The tool says this call may destroy data: it always warns, and no classifier may allow it. */
  isDestructive: boolean;
  assistantMessage?: AssistantMessage;
  /** Started by the runner in parallel with the hooks, for this very input; awaited if needed. */
  speculativeClassification?: SpeculativeClassification;
  signal: AbortSignal;
};

/**
 * The permission decision for one call: all five levels, in order (hook → policy → rules → mode
 * → prompt). The tool runner gathers the facts, calls it once and applies what it returns.
 */
export type CanUseToolFn = ((request: CanUseToolRequest) => Promise<PermissionDecision>) & {
  /** Starts the auto-mode classifier early; undefined when this call would never need it. */
  startSpeculativeClassification?: (request: {
    tool: PermissionTool;
    input: Record<string, unknown>;
    context: PermissionCallContext;
    signal: AbortSignal;
  }) => SpeculativeClassification | undefined;
};

/**
 * `PermissionRequest` hooks (compat-surface §2.4), asked before anyone is prompted and in every
 * mode that would otherwise ask: a decision they return is final; undefined means no opinion.
 */
export type PermissionRequestHook = (request: {
  toolName: string;
  access: ToolAccess;
  input: Record<string, unknown>;
  suggestions: readonly string[];
  /** The call's own working directory and mode, for the hook's input and `if` conditions. */
  cwd: string;
  permissionMode: PermissionMode;
  signal: AbortSignal;
}) => Promise<PermissionDecision | undefined>;

/**
 * Level 5 of the pipeline: ask someone. The interactive UI shows a dialog; the stream-json
 * protocol sends a `can_use_tool` control request; with neither, headless runs deny.
 */
export type PermissionPrompt = (request: {
  toolName: string;
  input: Record<string, unknown>;
  toolUseId: string;
  /** Why the pipeline could not decide on its own (shown to the person asked). */
  message: string;
  /** Rules that an "always allow" answer would add: exactly the segments shown, nothing wider. */
  suggestions?: string[];
  decisionReason?: DecisionReason;
  /** The subagent asking, so the person (or SDK host) knows whose call it is. */
  agentId?: string;
  signal: AbortSignal;
}) => Promise<PermissionDecision>;

/** Allows every call, hook denials included: for tests of what happens after the decision. */
export const allowAll: CanUseToolFn = async () => ({ behavior: 'allow' });
