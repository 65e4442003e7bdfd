/**
 * The hook points the engine and tool runner call. The hooks issue implements `HookRunner` with
 * settings-defined commands and SDK callbacks; until a runner is configured, `noopHooks` is used.
 */
import type { PermissionDecision } from '../permissions/types';

export type PreToolUseOutcome = {
  /** A hook's permission decision; it takes precedence over rules (level 1 of the pipeline). */
  permissionDecision?: PermissionDecision;
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

export type UserPromptSubmitOutcome = {
  blocked?: { reason: string };
  additionalContext?: string[];
  systemMessages?: string[];
};

export type ToolHookInput = {
  toolName: string;
  toolInput: Record<string, unknown>;
  toolUseId: string;
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
  stop(
    input: { stopHookActive: boolean; lastAssistantText: string },
    signal: AbortSignal,
  ): Promise<StopOutcome>;
  userPromptSubmit(input: { prompt: string }, signal: AbortSignal): Promise<UserPromptSubmitOutcome>;
  /** Fire-and-report events without outcomes (SessionStart, Notification, PostSampling, StopFailure, …). */
  notify(event: string, payload: Record<string, unknown>, signal: AbortSignal): Promise<void>;
}

export const noopHooks: HookRunner = {
  preToolUse: async () => ({}),
  postToolUse: async () => ({}),
  postToolUseFailure: async () => ({}),
  stop: async () => ({ blockingErrors: [] }),
  userPromptSubmit: async () => ({}),
  notify: async () => {},
};
