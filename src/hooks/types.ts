/**
 * The hook events Yoke fires, typed from event name to payload and result, and the hook points
 * the engine, tool runner and permission decision call. `createHookRunner` implements
 * `HookRunner` with settings-defined commands and SDK callbacks; without hooks, `noopHooks`.
 */

import type { HooksSettings } from '../config/settings-schema';
import type { EffortLevel } from '../model/effort';
import type { Usage } from '../model/types';
import type {
  HookPermissionDecision,
  PermissionDecision,
  PermissionMode,
  ToolAccess,
} from '../permissions/types';

/** The fields every tool event's stdin carries beyond `BaseHookInput` (compat-surface §2.4). */
type ToolCallFields = {
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_use_id: string;
};

/** `startup` and `resume` today; the others come with `/clear`, compaction and forks. */
export type SessionStartSource = 'startup' | 'resume' | 'clear' | 'compact' | 'fork';

/**
 * Every event Yoke fires: the fields its hooks get on stdin beyond `BaseHookInput`
 * (compat-surface §2.4) and what the runner answers the engine. A misspelled event or payload
 * field is a type error wherever an event is run.
 */
export type HookEvents = {
  PreToolUse: { payload: ToolCallFields; result: PreToolUseOutcome };
  PostToolUse: { payload: ToolCallFields & { tool_response: unknown }; result: PostToolUseOutcome };
  PostToolUseFailure: { payload: ToolCallFields & { error: string }; result: PostToolUseOutcome };
  /** Asked before a person is; no `tool_use_id` (compat-surface §2.4). */
  PermissionRequest: {
    payload: {
      tool_name: string;
      tool_input: Record<string, unknown>;
      permission_suggestions: readonly string[];
    };
    result: PermissionDecision | undefined;
  };
  UserPromptSubmit: { payload: { prompt: string }; result: UserPromptSubmitOutcome };
  /** A prompt command the user typed, before it expands (its `!` commands have not run yet). */
  UserPromptExpansion: { payload: PromptExpansionFields; result: UserPromptExpansionOutcome };
  /** One `!` command of a command or skill body, before the permission pipeline judges it. */
  PreSkillShellCommand: {
    payload: ToolCallFields & {
      command_name: string;
      command_source?: string;
      invoked_by: 'user' | 'claude' | 'other';
    };
    result: PreSkillShellCommandOutcome;
  };
  Stop: { payload: { stop_hook_active: boolean; last_assistant_message: string }; result: StopOutcome };
  SubagentStart: { payload: { agent_id: string; agent_type: string }; result: SubagentStartOutcome };
  SubagentStop: {
    payload: {
      stop_hook_active: boolean;
      agent_id: string;
      agent_type: string;
      agent_transcript_path: string;
      last_assistant_message: string;
    };
    result: StopOutcome;
  };
  PreCompact: {
    payload: { trigger: 'manual' | 'auto'; custom_instructions: string | null };
    result: undefined;
  };
  SessionStart: { payload: { source: SessionStartSource; model: string }; result: SessionStartOutcome };
  SessionEnd: { payload: { reason: string }; result: undefined };
  Notification: {
    payload: { message: string; notification_type: string; title?: string };
    result: undefined;
  };
  /** Yoke's own: after each model response, with what it cost. */
  PostSampling: { payload: { model: string; usage: Usage }; result: undefined };
  /** The turn ended on an error (`error` is the terminal reason). */
  StopFailure: { payload: { error: string; error_details: string | null }; result: undefined };
  /** A worktree is needed: when hooks are configured they make it instead of git (worktree-hooks.ts). */
  WorktreeCreate: { payload: { name: string }; result: WorktreeHookOutcome };
  /** A worktree a WorktreeCreate hook made is to go. */
  WorktreeRemove: { payload: { worktree_path: string }; result: WorktreeHookOutcome };
};

/**
 * What the worktree hooks did: `handled` false when none is configured (git does the work);
 * otherwise the path the creating hook gave, or why it failed, in one line.
 */
export type WorktreeHookOutcome =
  | { handled: false }
  | { handled: true; path: string }
  | { handled: true; error: string };

export type HookEvent = keyof HookEvents;
export type HookPayload<E extends HookEvent> = HookEvents[E]['payload'];
export type HookResult<E extends HookEvent> = HookEvents[E]['result'];

/** Events hooks only observe: nothing comes back to the engine (`HookRunner.notify`). */
export type ObservedHookEvent = {
  [E in HookEvent]: [HookResult<E>] extends [undefined] ? E : never;
}[HookEvent];

// A record, not a list, so that an event added to `HookEvents` but not here fails to compile.
const FIRED_EVENTS: Record<HookEvent, true> = {
  PreToolUse: true,
  PostToolUse: true,
  PostToolUseFailure: true,
  PermissionRequest: true,
  UserPromptSubmit: true,
  UserPromptExpansion: true,
  PreSkillShellCommand: true,
  Stop: true,
  SubagentStart: true,
  SubagentStop: true,
  PreCompact: true,
  SessionStart: true,
  SessionEnd: true,
  Notification: true,
  PostSampling: true,
  StopFailure: true,
  WorktreeCreate: true,
  WorktreeRemove: true,
};

/** Whether `name` is an event Yoke fires: the names an SDK host may register callbacks for. */
export const isHookEvent = (name: string): name is HookEvent => Object.hasOwn(FIRED_EVENTS, name);

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

export type SubagentStartOutcome = {
  /** Context for the worker: it reads it before its prompt. */
  additionalContext?: string[];
  systemMessages?: string[];
};

/**
 * The worker a runner speaks for (`HookRunner.forAgent`): its id and type join every hook's
 * input, and its Stop runs as SubagentStop with its transcript path.
 */
export type AgentHookScope = {
  agentId: string;
  agentType: string;
  transcriptPath: string;
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
  | { phase: 'started'; hookId: string; hookName: string; hookEvent: HookEvent }
  | {
      phase: 'response';
      hookId: string;
      hookName: string;
      hookEvent: HookEvent;
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

/** What a UserPromptExpansion hook is told (compat-surface §2.4). */
export type PromptExpansionFields = {
  expansion_type: 'slash_command' | 'mcp_prompt';
  command_name: string;
  command_args: string;
  /** Where the command came from: `user`, `project`, `plugin`, `bundled` or `mcp`. */
  command_source?: string;
  /** The line as the user typed it. */
  prompt: string;
};

export type UserPromptExpansionOutcome = {
  /** Exit 2, `decision: "block"` or `continue: false`: the command does not expand or run. */
  blocked?: { reason: string };
  additionalContext?: string[];
  /** `suppressOriginalPrompt`: the expansion is not sent, only the hooks' context. */
  suppressOriginalPrompt?: boolean;
  systemMessages?: string[];
};

export type PreSkillShellCommandOutcome = {
  /** Why the command must not run: a deny or ask, a block, or an attempt to rewrite it. */
  blocked?: { reason: string };
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
  /** The effort of the loop the call runs in, when one is set: the hook's `effort` and `CLAUDE_EFFORT`. */
  effort?: EffortLevel;
};

/** A `PermissionRequest`: the call as its tool hooks see it (without an id) and the rules offered. */
export type PermissionRequestHookInput = Omit<ToolHookInput, 'toolUseId'> & {
  suggestions: readonly string[];
};

/** The hook points the engine, the tool runner and the permission decision call: one per event with an answer. */
export interface HookRunner {
  preToolUse(input: ToolHookInput, signal: AbortSignal): Promise<HookResult<'PreToolUse'>>;
  postToolUse(
    input: ToolHookInput & { toolResponse: unknown },
    signal: AbortSignal,
  ): Promise<HookResult<'PostToolUse'>>;
  postToolUseFailure(
    input: ToolHookInput & { error: string },
    signal: AbortSignal,
  ): Promise<HookResult<'PostToolUseFailure'>>;
  /** A decision the hooks return is final; undefined when none has an opinion. */
  permissionRequest(
    input: PermissionRequestHookInput,
    signal: AbortSignal,
  ): Promise<HookResult<'PermissionRequest'>>;
  stop(
    input: { stopHookActive: boolean; lastAssistantText: string; effort?: EffortLevel | undefined },
    signal: AbortSignal,
  ): Promise<HookResult<'Stop'>>;
  userPromptSubmit(input: { prompt: string }, signal: AbortSignal): Promise<HookResult<'UserPromptSubmit'>>;
  /** UserPromptExpansion; absent on runners that have no hooks to run. */
  userPromptExpansion?(
    input: PromptExpansionFields,
    signal: AbortSignal,
  ): Promise<HookResult<'UserPromptExpansion'>>;
  /** PreSkillShellCommand; absent on runners that have no hooks to run. */
  preSkillShellCommand?(
    input: HookPayload<'PreSkillShellCommand'>,
    signal: AbortSignal,
  ): Promise<HookResult<'PreSkillShellCommand'>>;
  sessionStart(input: HookPayload<'SessionStart'>, signal: AbortSignal): Promise<HookResult<'SessionStart'>>;
  /** SubagentStart, before a worker's first request; absent on runners that have no hooks to run. */
  subagentStart?(
    input: { agentId: string; agentType: string },
    signal: AbortSignal,
  ): Promise<HookResult<'SubagentStart'>>;
  /**
   * The same hooks for one worker, plus hooks scoped to it (an agent file's `hooks`, whose Stop
   * runs as SubagentStop). Absent on runners without hooks.
   */
  forAgent?(scope: AgentHookScope, scopedHooks?: HooksSettings): HookRunner;
  /** WorktreeCreate: the hooks make the worktree and give its path; absent on runners without hooks. */
  worktreeCreate?(input: { name: string }, signal: AbortSignal): Promise<HookResult<'WorktreeCreate'>>;
  /** WorktreeRemove, for a worktree a WorktreeCreate hook made. */
  worktreeRemove?(input: { path: string }, signal: AbortSignal): Promise<HookResult<'WorktreeRemove'>>;
  /** Events hooks only observe (Notification, PostSampling, StopFailure, SessionEnd, PreCompact). */
  notify<E extends ObservedHookEvent>(event: E, payload: HookPayload<E>, signal: AbortSignal): Promise<void>;
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
