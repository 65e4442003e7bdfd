/**
 * The hook points the engine and tool runner call. The hooks issue implements `HookRunner` with
 * settings-defined commands and SDK callbacks; until a runner is configured, `noopHooks` is used.
 */
import type {
  HookPermissionDecision,
  PermissionDecision,
  PermissionMode,
  ToolAccess,
} from '../permissions/types';

export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'PreCompact',
  'SessionStart',
  'SessionEnd',
  'Notification',
  'PermissionRequest',
  'PostSampling',
  'StopFailure',
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** The JSON a hook prints (command hooks) or returns (SDK callbacks), as in compat-surface §2.5. */
export type HookJSONOutput = {
  continue?: boolean;
  stopReason?: string;
  suppressOutput?: boolean;
  systemMessage?: string;
  decision?: 'approve' | 'block';
  reason?: string;
  hookSpecificOutput?: { hookEventName: string; [field: string]: unknown };
  async?: boolean;
  asyncTimeout?: number;
};

/**
 * A hook whose code lives in the SDK host: registered through `initialize.hooks` and invoked with
 * a `hook_callback` control request. The hook runner matches and interprets it like a command hook.
 */
export type SdkHookMatcher = {
  event: HookEvent;
  matcher?: string;
  callbackIds: string[];
  /** Seconds. */
  timeout?: number;
};

export type HookCallbackInvoker = (request: {
  callbackId: string;
  input: Record<string, unknown>;
  toolUseId?: string;
  signal: AbortSignal;
}) => Promise<HookJSONOutput>;

export type PreToolUseOutcome = {
  /** A hook's permission decision: level 1 of the permission decision (a deny rule still beats its allow). */
  permissionDecision?: HookPermissionDecision;
  /** The input the call runs with instead (its permission decision then judges this one). */
  updatedInput?: Record<string, unknown>;
  /** Extra text for the model, attached to the tool result. */
  additionalContext?: string[];
  /** Stop the whole turn after this tool (`continue: false`). */
  preventContinuation?: { stopReason: string };
  /** A message for the user (shown, not sent to the model). */
  systemMessages?: string[];
};

export type PostToolUseOutcome = {
  additionalContext?: string[];
  /** exit code 2 / decision "block": fed to the model with the result. */
  blockingErrors?: string[];
  preventContinuation?: { stopReason: string };
  systemMessages?: string[];
};

export type StopOutcome = {
  /** Errors that send the model back to work (`stop_hook_blocking`). */
  blockingErrors: string[];
  preventContinuation?: { stopReason: string };
  systemMessages?: string[];
};

export type SessionStartOutcome = {
  /** Context for the model: plain stdout and `additionalContext`, labelled as compat-surface §2.7 words them. */
  additionalContext?: string[];
  systemMessages?: string[];
};

/**
 * One hook's run as the stream-json `system/hook_started` and `system/hook_response` frames
 * report it (agent-sdk-protocol §5.7). `hookName` is the labelled event (`SessionStart:startup`).
 */
export type HookLifecycle =
  | { phase: 'started'; hookId: string; hookName: string; hookEvent: string }
  | {
      phase: 'response';
      hookId: string;
      hookName: string;
      hookEvent: string;
      /** stdout and stderr together, as a person would have seen them. */
      output: string;
      stdout: string;
      stderr: string;
      /** A command's exit code; absent for SDK callbacks and commands that never exited. */
      exitCode?: number;
      outcome: 'success' | 'error' | 'cancelled';
    };

export type UserPromptSubmitOutcome = {
  blocked?: { reason: string };
  additionalContext?: string[];
  systemMessages?: string[];
};

/** One tool call as its hooks see it, from the call's own context. */
export type ToolHookInput = {
  toolName: string;
  toolInput: Record<string, unknown>;
  toolUseId: string;
  /** What the tool touches (tool.ts), for `if` conditions written as permission rules. */
  access: ToolAccess;
  /** The directory the call runs in, when it differs from the session's (an earlier `cd`). */
  cwd?: string;
  /** The mode the call is decided in, when it differs from the session's (a subagent's). */
  permissionMode?: PermissionMode;
};

/** A `PermissionRequest`: the call as its tool hooks see it (without an id) and the rules offered. */
export type PermissionRequestHookInput = Omit<ToolHookInput, 'toolUseId'> & {
  suggestions: readonly string[];
};

export interface HookRunner {
  preToolUse(input: ToolHookInput, signal: AbortSignal): Promise<PreToolUseOutcome>;
  postToolUse(
    input: ToolHookInput & { toolResponse: unknown },
    signal: AbortSignal,
  ): Promise<PostToolUseOutcome>;
  postToolUseFailure(
    input: ToolHookInput & { error: string },
    signal: AbortSignal,
  ): Promise<PostToolUseOutcome>;
  /** A decision the hooks return is final; undefined when none has an opinion. */
  permissionRequest(
    input: PermissionRequestHookInput,
    signal: AbortSignal,
  ): Promise<PermissionDecision | undefined>;
  stop(
    input: { stopHookActive: boolean; lastAssistantText: string },
    signal: AbortSignal,
  ): Promise<StopOutcome>;
  userPromptSubmit(input: { prompt: string }, signal: AbortSignal): Promise<UserPromptSubmitOutcome>;
  sessionStart(input: { source: string; model: string }, signal: AbortSignal): Promise<SessionStartOutcome>;
  /** Fire-and-report events without outcomes (Notification, PostSampling, StopFailure, SessionEnd, …). */
  notify(event: string, payload: Record<string, unknown>, signal: AbortSignal): Promise<void>;
}

export const noopHooks: HookRunner = {
  preToolUse: async () => ({}),
  postToolUse: async () => ({}),
  postToolUseFailure: async () => ({}),
  permissionRequest: async () => undefined,
  stop: async () => ({ blockingErrors: [] }),
  userPromptSubmit: async () => ({}),
  sessionStart: async () => ({}),
  notify: async () => {},
};
