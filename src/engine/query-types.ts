/**
 * The contract of the query loop (seed 000 §3.2): its parameters, what it yields, why it
 * continues (`Transition`) and why it ends (`Terminal`).
 */

import type { HookRunner } from '../hooks/types';
import type { ModelError } from '../model/errors';
import type { Provider, StreamEvent, SystemPart, ThinkingConfig, Usage } from '../model/types';
import type { CanUseToolFn } from '../permissions/types';
import type { Message } from '../session/messages';
import type { ToolUseContext } from '../tools/context';
import type { AnyTool } from '../tools/tool';
import type { ToolEvent } from '../tools/tool-events';
import type { StructuredOutputCapture } from './structured-output';

export type TerminalReason =
  | 'completed'
  | 'max_turns'
  | 'aborted_streaming'
  | 'aborted_tools'
  | 'model_error'
  | 'prompt_too_long'
  | 'image_error'
  | 'blocking_limit'
  | 'hook_stopped'
  | 'stop_hook_prevented'
  | 'budget_exhausted'
  /** `--json-schema`: the model was reminded and still did not call StructuredOutput. */
  | 'structured_output_retry_exhausted';

export type Terminal = {
  reason: TerminalReason;
  turnCount: number;
  /** The error that ended the loop, for model_error / prompt_too_long / image_error. */
  error?: ModelError | Error;
  /** Human-readable detail for the result's `errors`. */
  message?: string;
  /**
   * The conversation as the loop leaves it: the input history (possibly compacted) plus every
   * message of this run that belongs in the transcript. The caller continues from it.
   */
  messages: Message[];
  /** The working directory tools left behind (Bash's `cd` persists across turns). */
  cwd?: string;
  /** The project root tools left behind (EnterWorktree and ExitWorktree move it). */
  projectRoot?: string;
};

export type TransitionReason =
  | 'next_turn'
  | 'max_output_tokens_escalate'
  | 'max_output_tokens_recovery'
  | 'reactive_compact_retry'
  | 'collapse_drain_retry'
  | 'media_strip_retry'
  | 'stop_hook_blocking'
  | 'token_budget_continuation'
  | 'structured_output_nudge'
  | 'model_fallback';

export type Transition = { reason: TransitionReason; detail?: string };

/** What the loop carries from one pass to the next (seed 000 calls it `State`). */
export type QueryState = {
  messages: Message[];
  toolUseContext: ToolUseContext;
  turnCount: number;
  maxOutputTokensRecoveryCount: number;
  hasAttemptedReactiveCompact: boolean;
  /** The staged collapses were drained after a prompt-too-long answer (once, before compacting). */
  hasAttemptedCollapseDrain: boolean;
  /** Media the API refused were stripped for a retry (once per model call). */
  hasAttemptedMediaStrip: boolean;
  maxOutputTokensOverride: number | undefined;
  stopHookActive: boolean;
  /** Stop-hook blocks honoured in this turn, against `stopHookBlockCap`. */
  stopHookBlocks: number;
  /** Reminders sent to call StructuredOutput, against MAX_STRUCTURED_OUTPUT_NUDGES. */
  structuredOutputNudges: number;
  transition: Transition | undefined;
};

/**
 * Runs before each model call (attachments, tool-result budget, snip, microcompact, collapse and
 * auto-compact; see context/pipeline.ts). It returns the messages to send and may replace history.
 */
export type ContextPipeline = (input: {
  messages: Message[];
  state: Readonly<QueryState>;
  signal: AbortSignal;
}) => Promise<ContextPipelineResult>;

export type ContextPipelineResult = {
  messages: Message[];
  events?: Message[];
  /**
   * The pass asked a model for something (a compaction summary, whether or not it was usable):
   * that cost money, so the loop checks the spending budget before its own call.
   */
  madeSideCall?: boolean;
};

/** Called on PromptTooLongError; returns compacted messages or undefined when it cannot help. */
export type ReactiveCompact = (input: {
  messages: Message[];
  signal: AbortSignal;
}) => Promise<{ messages: Message[]; events?: Message[] } | undefined>;

/**
 * Called on PromptTooLongError before `reactiveCompact`: commits the staged context collapses at
 * once. Returns the shorter history, or undefined when there was nothing to fold.
 */
export type CollapseDrain = (input: {
  messages: Message[];
  signal: AbortSignal;
}) => Promise<{ messages: Message[]; events: Message[]; folded: number } | undefined>;

export type QueryParams = {
  messages: Message[];
  systemPrompt: SystemPart[];
  toolUseContext: ToolUseContext;
  canUseTool: CanUseToolFn;
  provider: Provider;
  model: string;
  /** Used once the primary model is overloaded past its retries. */
  fallback?: { provider: Provider; model: string };
  hooks: HookRunner;
  maxTurns?: number;
  /** max_tokens for requests before any escalation. */
  maxOutputTokens?: number;
  thinking?: ThinkingConfig;
  /** How many tools may run at once in a concurrency-safe batch (default 10). */
  maxToolConcurrency?: number;
  contextPipeline?: ContextPipeline;
  reactiveCompact?: ReactiveCompact;
  collapseDrain?: CollapseDrain;
  /** Token budget for the whole turn; the loop nudges the model on until it is spent. */
  taskBudget?: { total: number };
  /**
   * `--max-budget-usd`: asked before the next model call whenever something spent money — a
   * model call that asked for tools, a compaction's summary call. True ends the loop with
   * `budget_exhausted`.
   */
  isBudgetExhausted?: () => boolean;
  /** Tokens the model may be given before a call is refused (`blocking_limit`); defaults to the window. */
  blockingLimitTokens?: number;
  /** The context window of a model; the built-in table's when absent. */
  contextWindowFor?: (model: string) => number;
  /** Where the loop runs: the main thread, a subagent, a compaction. */
  querySource?: 'main' | 'agent' | 'compact' | 'side';
  /** How many Stop-hook blocks one turn honours before it ends anyway (default 8). */
  stopHookBlockCap?: number;
  /**
   * With `--json-schema`: what the StructuredOutput tool captured. The turn does not complete
   * before it holds a valid output: the model is reminded to call the tool, and when reminders
   * run out the loop ends with `structured_output_retry_exhausted`.
   */
  structuredOutput?: StructuredOutputCapture;
  /**
   * The tools the next request offers, asked before each one: a mode switched mid-turn
   * (ExitPlanMode) or an MCP server that connected or dropped changes the pool. The same array
   * back means no change; the pool stays as it was when absent.
   */
  refreshTools?: () => readonly AnyTool[];
  /**
   * Awaited between the steps of a pass (before the context pipeline, the request's build and
   * its send) by a host whose person is typing (the REPL), so a keystroke is handled between
   * steps instead of after the whole start of a model call. Absent: no pause (headless).
   */
  letInputIn?: () => Promise<void>;
};

/**
 * Everything the loop yields, in order: the tools' events (messages — here also assistant blocks
 * and system notices — progress, refusals) plus the loop's own.
 */
export type QueryEvent =
  | ToolEvent
  /** A raw stream event of the current model call (for partial-message output). */
  | { type: 'stream_event'; event: StreamEvent; model: string }
  | { type: 'transition'; transition: Transition }
  /** A model call finished; usage for cost accounting. */
  | {
      type: 'model_usage';
      model: string;
      usage: Usage;
      apiDurationMs: number;
    };
