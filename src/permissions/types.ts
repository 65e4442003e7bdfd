/**
 * The shapes of permission decisions. The engine and tools depend on these; the rule engine,
 * modes and prompts that produce them live beside this file.
 */
import type { PermissionMode, PermissionRule } from '../lib/permission-vocabulary';
import type { AssistantMessage } from '../session/messages';

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
};

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

/** An auto-mode classifier's answer: it may allow, or hand the call on to a person. */
export type ClassifierVerdict = { behavior: 'allow' | 'ask'; reason: string };

/** A classification started before the PreToolUse hooks (seed 001 step 4b); cancel it when unused. */
export type SpeculativeClassification = { result: Promise<ClassifierVerdict>; cancel(): void };

export type CanUseToolRequest = {
  toolName: string;
  input: Record<string, unknown>;
  toolUseId: string;
  toolPermission: ToolPermissionResult;
  isReadOnly: boolean;
  /**
   * The directory this call will run in (an earlier Bash `cd` may have moved it). Relative paths
   * are judged against it, never against where the turn started; defaults to the session's cwd.
   */
  cwd?: string;
  assistantMessage?: AssistantMessage;
  /** Level 1: what a PreToolUse hook decided. `allow` skips the prompt but not a deny rule. */
  hookDecision?: PermissionDecision;
  /** Started by the runner in parallel with the hooks; the pipeline awaits it if it needs it. */
  speculativeClassification?: SpeculativeClassification;
  signal: AbortSignal;
};

/**
 * The permission pipeline as the tool runner sees it. The tool is passed structurally (name and
 * checker) to keep this layer free of the tool module.
 */
export type CanUseToolFn = ((request: CanUseToolRequest) => Promise<PermissionDecision>) & {
  /** Starts the auto-mode classifier early; undefined when this pipeline would not use it. */
  startSpeculativeClassification?: (request: {
    toolName: string;
    input: Record<string, unknown>;
    signal: AbortSignal;
  }) => SpeculativeClassification | undefined;
};

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
  signal: AbortSignal;
}) => Promise<PermissionDecision>;

/** Allows everything: for tests and `bypassPermissions` wiring. */
export const allowAll: CanUseToolFn = async () => ({ behavior: 'allow' });
