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
 * (RequestBuilder) only process what changed since the previous model call. The run's state and
 * moves are in query-run.ts, what follows an answer in after-answer.ts, the recoveries in
 * query-recoveries.ts.
 */
import { StreamingToolExecutor } from '../tools/streaming-executor';
import { afterAnswer } from './after-answer';
import type { AbortedEnd, ToolUseEnd } from './attempt-end';
import { ModelAttempt } from './model-attempt';
import { recoverFromError, recoverFromMaxTokens } from './query-recoveries';
import { QueryRun, type Step } from './query-run';
import type { QueryEvent, QueryParams, Terminal } from './query-types';
import { INTERRUPT_MESSAGE, interruptMessage } from './recovery';
import { RequestBuilder } from './request-builder';

export function query(params: QueryParams): AsyncGenerator<QueryEvent, Terminal> {
  return new QueryLoop(params).run();
}

class QueryLoop {
  private readonly loop: QueryRun;
  private readonly requests: RequestBuilder;

  constructor(params: QueryParams) {
    this.loop = new QueryRun(params);
    this.requests = new RequestBuilder(params);
  }

  async *run(): AsyncGenerator<QueryEvent, Terminal> {
    while (true) {
      const terminal = yield* this.iterate();
      if (terminal) return terminal;
    }
  }

  /** One pass of the loop: returns a Terminal to stop, undefined to go round again. */
  private async *iterate(): Step {
    const { loop } = this;
    const { state, params, signal } = loop;
    if (signal.aborted) {
      yield* loop.append(interruptMessage(false));
      return loop.end('aborted_streaming', INTERRUPT_MESSAGE);
    }
    await params.letInputIn?.();
    if (params.contextPipeline) {
      const piped = await params.contextPipeline({ messages: state.messages, state, signal });
      // The pipeline hands over the returned array: the loop appends to it from here on.
      state.messages = piped.messages;
      for (const message of piped.events ?? []) yield { type: 'message', message };
      if (piped.madeSideCall && loop.budgetSpent()) return loop.endOnBudget();
    }

    const tools = params.refreshTools?.();
    if (tools && tools !== state.toolUseContext.tools)
      state.toolUseContext = { ...state.toolUseContext, tools };
    await params.letInputIn?.();
    const model = loop.model;
    const request = this.requests.build(model, state, loop.provider.name);
    const limit = params.blockingLimitTokens ?? this.requests.contextWindow(model) - request.maxTokens;
    const estimated = this.requests.estimateTokens(request);
    if (estimated >= limit) {
      return yield* loop.fail(
        'blocking_limit',
        `The conversation is too long for ${model}: about ${estimated} tokens against a limit of ` +
          `${limit}. Compact it or start a new session.`,
      );
    }

    await params.letInputIn?.();
    // Esc pressed during that pause: no model call.
    if (signal.aborted) {
      yield* loop.append(interruptMessage(false));
      return loop.end('aborted_streaming', INTERRUPT_MESSAGE);
    }
    const attempt = new ModelAttempt({
      provider: loop.provider,
      request,
      signal,
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
    if (end.type === 'failed') return yield* recoverFromError(loop, end);
    loop.budget.record(end.stop.usage.outputTokens);

    if (end.type === 'tool_use') return yield* this.toolTurn(end);
    if (end.stop.reason === 'max_tokens') return yield* recoverFromMaxTokens(loop, end, request);
    yield* loop.commit(end);
    if (signal.aborted) {
      yield* loop.append(interruptMessage(false));
      return loop.end('aborted_streaming', INTERRUPT_MESSAGE);
    }
    return yield* afterAnswer(loop, end);
  }

  /**
   * The model asked for tools and their results are in: go round again, unless a hook stopped the
   * turn, the user interrupted, the budget is spent or the turn limit is reached.
   */
  private async *toolTurn(end: ToolUseEnd): Step {
    const { loop } = this;
    const { state, params } = loop;
    const turn = yield* end.finishToolTurn();
    state.toolUseContext = turn.context;
    // A tool may hand the rest of the turn to another model (the Skill tool, for a skill's `model`).
    loop.adoptModel(turn.context.model);
    state.messages.push(...turn.messages);
    state.turnCount++;
    loop.budget.toolTurn();

    const stopped = turn.preventContinuation;
    if (stopped) return loop.end('hook_stopped', stopped.stopReason);
    if (loop.signal.aborted) {
      yield* loop.append(interruptMessage(true));
      return loop.end('aborted_tools', INTERRUPT_MESSAGE);
    }
    if (loop.budgetSpent()) return loop.endOnBudget();
    // As Claude Code counts: maxTurns model calls may request tools; the next call is refused.
    if (params.maxTurns !== undefined && state.turnCount >= params.maxTurns) {
      return loop.end('max_turns', `Reached the maximum number of turns (${params.maxTurns}).`);
    }
    state.maxOutputTokensRecoveryCount = 0;
    state.hasAttemptedReactiveCompact = false;
    state.hasAttemptedCollapseDrain = false;
    state.hasAttemptedMediaStrip = false;
    yield* loop.proceed({ reason: 'next_turn' });
    return undefined;
  }

  /**
   * The user interrupted while the model was streaming: what had streamed is kept, tool calls
   * already shown are answered, and the loop ends.
   */
  private async *abortStreaming(end: AbortedEnd): Step {
    const { loop } = this;
    loop.state.messages.push(...(yield* end.finishAbort()));
    yield* loop.append(interruptMessage(false));
    return loop.end('aborted_streaming', INTERRUPT_MESSAGE);
  }
}
