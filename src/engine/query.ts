/**
 * The query loop: a `while (true)` over one QueryState that calls the model, runs the tools it
 * asks for, recovers from the errors it can recover from, and ends with a Terminal that says why
 * (its design follows seed 000 §3.2). One pass: the context pipeline prepares the history, the
 * request is checked against the blocking limit, one model call runs (tools start while it
 * streams), and its end decides — a tool turn goes round again, an answer meets the Stop hooks, a
 * failure meets the recoveries, an interrupt ends the loop. Every `continue` is a Transition.
 *
 * What the consumer sees: every message that becomes part of the conversation is yielded when it
 * does, so a consumer that appends yielded messages holds the same history as the loop. Messages
 * a recovery drops (a truncated response that is retried, a failed attempt) are never yielded;
 * a failure that ends the loop is yielded as one AssistantMessage with `apiError` set.
 *
 * History grows by appending to `state.messages` in place; the request and its token estimate
 * (RequestBuilder) only process what changed since the previous model call.
 */
import type { ModelRequest, Provider } from '../model/types';
import { createSystemMessage, type Message } from '../session/messages';
import { StreamingToolExecutor } from '../tools/streaming-executor';
import { stripThinking } from './api-messages';
import type { AbortedEnd, AnswerEnd, FailedEnd, ToolUseEnd } from './attempt-end';
import { stripRefusedMedia } from './media-recovery';
import { ModelAttempt } from './model-attempt';
import type {
  QueryEvent,
  QueryParams,
  QueryState,
  Terminal,
  TerminalReason,
  Transition,
} from './query-types';
import {
  adviseFallbackModel,
  apiErrorMessage,
  classifyModelError,
  DEFAULT_STOP_HOOK_BLOCK_CAP,
  errorText,
  escalatedMaxTokens,
  fallbackNotice,
  INTERRUPT_MESSAGE,
  interruptMessage,
  MAX_OUTPUT_TOKENS_RECOVERY_LIMIT,
  outputLimitContinuationMessage,
  outputLimitErrorText,
  stopHookCapText,
  stopHookFeedbackMessage,
  TERMINAL_FOR_ERROR,
} from './recovery';
import { RequestBuilder } from './request-builder';
import {
  MAX_STRUCTURED_OUTPUT_NUDGES,
  STRUCTURED_OUTPUT_MISSING_TEXT,
  structuredOutputNudge,
} from './structured-output-nudge';
import { TaskBudget } from './task-budget';

type Step = AsyncGenerator<QueryEvent, Terminal | undefined>;

export function query(params: QueryParams): AsyncGenerator<QueryEvent, Terminal> {
  return new QueryLoop(params).run();
}

class QueryLoop {
  private readonly state: QueryState;
  private provider: Provider;
  private model: string;
  private onFallback = false;
  private readonly budget: TaskBudget;
  private readonly requests: RequestBuilder;

  constructor(private readonly params: QueryParams) {
    this.provider = params.provider;
    this.model = params.model;
    this.budget = new TaskBudget(params.taskBudget?.total);
    this.requests = new RequestBuilder(params);
    this.state = {
      // One copy up front: the loop appends in place and must not write into the caller's array.
      messages: [...params.messages],
      toolUseContext: params.toolUseContext,
      turnCount: 0,
      maxOutputTokensRecoveryCount: 0,
      hasAttemptedReactiveCompact: false,
      hasAttemptedCollapseDrain: false,
      hasAttemptedMediaStrip: false,
      maxOutputTokensOverride: undefined,
      stopHookActive: false,
      stopHookBlocks: 0,
      structuredOutputNudges: 0,
      transition: undefined,
    };
  }

  private get signal(): AbortSignal {
    return this.state.toolUseContext.abortSignal;
  }

  async *run(): AsyncGenerator<QueryEvent, Terminal> {
    while (true) {
      const terminal = yield* this.iterate();
      if (terminal) return terminal;
    }
  }

  /** One pass of the loop: returns a Terminal to stop, undefined to go round again. */
  private async *iterate(): Step {
    const { state, params } = this;
    if (this.signal.aborted) {
      yield* this.append(interruptMessage(false));
      return this.end('aborted_streaming', INTERRUPT_MESSAGE);
    }
    if (params.contextPipeline) {
      const piped = await params.contextPipeline({ messages: state.messages, state, signal: this.signal });
      // The pipeline hands over the returned array: the loop appends to it from here on.
      state.messages = piped.messages;
      for (const message of piped.events ?? []) yield { type: 'message', message };
      if (piped.madeSideCall && this.budgetSpent()) return this.endOnBudget();
    }

    const tools = params.refreshTools?.();
    if (tools && tools !== state.toolUseContext.tools)
      state.toolUseContext = { ...state.toolUseContext, tools };
    const request = this.requests.build(this.model, state);
    const limit = params.blockingLimitTokens ?? this.requests.contextWindow(this.model) - request.maxTokens;
    const estimated = this.requests.estimateTokens(request);
    if (estimated >= limit) {
      return yield* this.fail(
        'blocking_limit',
        `The conversation is too long for ${this.model}: about ${estimated} tokens against a limit of ` +
          `${limit}. Compact it or start a new session.`,
      );
    }

    const attempt = new ModelAttempt({
      provider: this.provider,
      request,
      signal: this.signal,
      estimatedInputTokens: estimated,
      createExecutor: () =>
        new StreamingToolExecutor({
          context: { ...state.toolUseContext, messages: state.messages },
          canUseTool: params.canUseTool,
          hooks: params.hooks,
          maxConcurrency: params.maxToolConcurrency,
        }),
    });
    const end = yield* attempt.run();

    if (end.type === 'aborted') return yield* this.abortStreaming(end);
    if (end.type === 'failed') return yield* this.recoverFromError(end);
    this.budget.record(end.stop.usage.outputTokens);

    if (end.type === 'tool_use') return yield* this.toolTurn(end);
    if (end.stop.reason === 'max_tokens') return yield* this.recoverFromMaxTokens(end, request);
    yield* this.commit(end);
    if (this.signal.aborted) {
      yield* this.append(interruptMessage(false));
      return this.end('aborted_streaming', INTERRUPT_MESSAGE);
    }
    return yield* this.afterAnswer(end);
  }

  /**
   * The model asked for tools and their results are in: go round again, unless a hook stopped the
   * turn, the user interrupted, the budget is spent or the turn limit is reached.
   */
  private async *toolTurn(end: ToolUseEnd): Step {
    const { state, params } = this;
    const turn = yield* end.finishToolTurn();
    state.toolUseContext = turn.context;
    // A tool may hand the rest of the turn to another model (the Skill tool, for a skill's `model`).
    this.model = turn.context.model;
    state.messages.push(...turn.messages);
    state.turnCount++;
    this.budget.toolTurn();

    const stopped = turn.preventContinuation;
    if (stopped) return this.end('hook_stopped', stopped.stopReason);
    if (this.signal.aborted) {
      yield* this.append(interruptMessage(true));
      return this.end('aborted_tools', INTERRUPT_MESSAGE);
    }
    if (this.budgetSpent()) return this.endOnBudget();
    // As Claude Code counts: maxTurns model calls may request tools; the next call is refused.
    if (params.maxTurns !== undefined && state.turnCount >= params.maxTurns) {
      return this.end('max_turns', `Reached the maximum number of turns (${params.maxTurns}).`);
    }
    state.maxOutputTokensRecoveryCount = 0;
    state.hasAttemptedReactiveCompact = false;
    state.hasAttemptedCollapseDrain = false;
    state.hasAttemptedMediaStrip = false;
    yield* this.proceed({ reason: 'next_turn' });
    return undefined;
  }

  /**
   * The model answered without tool calls: Stop hooks may send it back to work, the task budget
   * may nudge it on, `--json-schema` may demand StructuredOutput; otherwise the turn completes.
   */
  private async *afterAnswer(answer: AnswerEnd): Step {
    const { state, params } = this;
    const outcome = await params.hooks.stop(
      { stopHookActive: state.stopHookActive, lastAssistantText: answer.text },
      this.signal,
    );
    for (const text of outcome.systemMessages ?? []) {
      yield* this.append(createSystemMessage('stop_hook_feedback', text));
    }
    if (outcome.preventContinuation) {
      return this.end('stop_hook_prevented', outcome.preventContinuation.stopReason);
    }
    if (outcome.blockingErrors.length > 0) {
      // Every block of the turn counts, tool calls in between or not: a hook that objects to
      // everything must not keep the model (and the bill) going until the turn limit.
      const cap = params.stopHookBlockCap ?? DEFAULT_STOP_HOOK_BLOCK_CAP;
      if (state.stopHookBlocks >= cap) {
        const text = stopHookCapText(cap, outcome.blockingErrors);
        yield* this.append(createSystemMessage('stop_hook_feedback', text, { level: 'warning' }));
        return this.end('stop_hook_prevented', text);
      }
      state.stopHookBlocks++;
      yield* this.append(stopHookFeedbackMessage(outcome.blockingErrors));
      state.stopHookActive = true;
      yield* this.proceed({ reason: 'stop_hook_blocking' });
      return undefined;
    }
    const nudge = this.budget.nudgeAfterStop(answer.stop.reason);
    if (nudge) {
      yield* this.append(nudge);
      yield* this.proceed({
        reason: 'token_budget_continuation',
        detail: `${this.budget.outputTokensSpent} of ${params.taskBudget?.total} output tokens spent`,
      });
      return undefined;
    }
    return yield* this.demandStructuredOutput();
  }

  /** The end of a turn with `--json-schema`: not before the model called StructuredOutput. */
  private async *demandStructuredOutput(): Step {
    const { state } = this;
    const output = this.params.structuredOutput;
    if (!output || output.provided) return this.end('completed');
    if (state.structuredOutputNudges >= MAX_STRUCTURED_OUTPUT_NUDGES) {
      return this.end('structured_output_retry_exhausted', STRUCTURED_OUTPUT_MISSING_TEXT);
    }
    state.structuredOutputNudges++;
    yield* this.append(structuredOutputNudge());
    yield* this.proceed({
      reason: 'structured_output_nudge',
      detail: `${state.structuredOutputNudges}/${MAX_STRUCTURED_OUTPUT_NUDGES}`,
    });
    return undefined;
  }

  /** A max_tokens stop without tool calls: escalate once, then ask the model to continue. */
  private async *recoverFromMaxTokens(answer: AnswerEnd, request: ModelRequest): Step {
    const { state } = this;
    if (state.maxOutputTokensOverride === undefined) {
      const escalated = escalatedMaxTokens(this.model, request.maxTokens);
      if (escalated !== undefined) {
        // The same request again with room to finish; the truncated response is dropped unseen.
        state.maxOutputTokensOverride = escalated;
        yield* this.proceed({
          reason: 'max_output_tokens_escalate',
          detail: `${request.maxTokens} → ${escalated}`,
        });
        return undefined;
      }
    }
    // The truncated response stays: the model continues from where it was cut off.
    yield* this.commit(answer);
    if (state.maxOutputTokensRecoveryCount < MAX_OUTPUT_TOKENS_RECOVERY_LIMIT) {
      state.maxOutputTokensRecoveryCount++;
      yield* this.append(outputLimitContinuationMessage());
      yield* this.proceed({
        reason: 'max_output_tokens_recovery',
        detail: `${state.maxOutputTokensRecoveryCount}/${MAX_OUTPUT_TOKENS_RECOVERY_LIMIT}`,
      });
      return undefined;
    }
    return yield* this.fail(
      'model_error',
      outputLimitErrorText(request.maxTokens, state.maxOutputTokensRecoveryCount),
    );
  }

  /**
   * A failed model call: recover when a recovery applies (the fallback model on overload; the
   * collapse drain, then one reactive compact on prompt-too-long; stripping refused media), else
   * end with the error.
   */
  private async *recoverFromError(end: FailedEnd): Step {
    const { state, params } = this;
    const error = end.error;
    yield* end.finishError();
    const kind = classifyModelError(error);

    if (kind === 'overloaded' && params.fallback && !this.onFallback) {
      const from = this.model;
      this.onFallback = true;
      this.provider = params.fallback.provider;
      this.model = params.fallback.model;
      state.toolUseContext = { ...state.toolUseContext, model: this.model };
      // Thinking signatures are bound to the model that produced them.
      state.messages = stripThinking(state.messages);
      yield* this.append(fallbackNotice(from, this.model, error));
      yield* this.proceed({ reason: 'model_fallback', detail: `${from} → ${this.model}` });
      return undefined;
    }
    // Staged collapses first: they cost no model call and keep the most of the conversation.
    if (kind === 'prompt_too_long' && params.collapseDrain && !state.hasAttemptedCollapseDrain) {
      state.hasAttemptedCollapseDrain = true;
      const drained = await params.collapseDrain({ messages: state.messages, signal: this.signal });
      if (drained) {
        state.messages = drained.messages;
        for (const message of drained.events) yield { type: 'message', message };
        yield* this.proceed({ reason: 'collapse_drain_retry', detail: `${drained.folded} rounds folded` });
        return undefined;
      }
    }
    if (kind === 'prompt_too_long' && params.reactiveCompact && !state.hasAttemptedReactiveCompact) {
      state.hasAttemptedReactiveCompact = true;
      const compacted = await params.reactiveCompact({ messages: state.messages, signal: this.signal });
      if (compacted) {
        state.messages = compacted.messages;
        for (const message of compacted.events ?? []) yield { type: 'message', message };
        // The summary was a model call of its own: it may have spent what was left.
        if (this.budgetSpent()) return this.endOnBudget();
        yield* this.proceed({ reason: 'reactive_compact_retry' });
        return undefined;
      }
    }
    if (kind === 'media' && !state.hasAttemptedMediaStrip) {
      state.hasAttemptedMediaStrip = true;
      const stripped = stripRefusedMedia(state.messages, error);
      if (stripped) {
        state.messages = stripped.messages;
        yield* this.append(stripped.notice);
        yield* this.proceed({ reason: 'media_strip_retry', detail: `${stripped.removed} removed` });
        return undefined;
      }
    }
    if (kind === 'overloaded' && !params.fallback) adviseFallbackModel(error);
    return yield* this.fail(TERMINAL_FOR_ERROR[kind], errorText(error), error);
  }

  /**
   * The user interrupted while the model was streaming: what had streamed is kept, tool calls
   * already shown are answered, and the loop ends.
   */
  private async *abortStreaming(end: AbortedEnd): Step {
    this.state.messages.push(...(yield* end.finishAbort()));
    yield* this.append(interruptMessage(false));
    return this.end('aborted_streaming', INTERRUPT_MESSAGE);
  }

  /**
   * `--max-budget-usd`, asked after whatever spent money and before the next model call: a tool
   * turn's model call, and a compaction's summary call (auto-compact in the pipeline, or reactive).
   */
  private budgetSpent(): boolean {
    return this.params.isBudgetExhausted?.() === true;
  }

  private endOnBudget(): Terminal {
    return this.end('budget_exhausted', 'The budget for this task is spent.');
  }

  /** Yields the answer's withheld block messages and adds the response to history. */
  private *commit(answer: AnswerEnd): Generator<QueryEvent> {
    this.state.messages.push(...(yield* answer.finishAnswer()));
  }

  private *append(message: Message): Generator<QueryEvent> {
    this.state.messages.push(message);
    yield { type: 'message', message };
  }

  private *proceed(transition: Transition): Generator<QueryEvent> {
    this.state.transition = transition;
    yield { type: 'transition', transition };
  }

  /** Ends the loop on an error: the user sees it as an API-error message, the result as `message`. */
  private *fail(reason: TerminalReason, message: string, error?: unknown): Generator<QueryEvent, Terminal> {
    // Kept in history for the transcript; toApiMessages never sends it to a model.
    yield* this.append(apiErrorMessage(message, this.model));
    const terminal = this.end(reason, message);
    if (error instanceof Error) terminal.error = error;
    return terminal;
  }

  private end(reason: TerminalReason, message?: string): Terminal {
    const terminal: Terminal = {
      reason,
      turnCount: this.state.turnCount,
      messages: this.state.messages,
      cwd: this.state.toolUseContext.cwd,
      projectRoot: this.state.toolUseContext.projectRoot,
    };
    if (message !== undefined) terminal.message = message;
    return terminal;
  }
}
