/**
 * Runs tool calls while the model is still streaming (seed 000 §3.3.3 StreamingToolExecutor).
 * Calls start the moment `addTool` sees them if the concurrency rule allows, so a quick read can
 * finish before the response does; results still come out strictly in the model's order.
 */

import type { HookRunner } from '../hooks/types';
import { Channel } from '../lib/channel';
import type { ToolUseBlock } from '../model/types';
import type { CanUseToolFn } from '../permissions/types';
import type { AssistantMessage } from '../session/messages';
import { DEFAULT_MAX_TOOL_CONCURRENCY, isCallConcurrencySafe } from './concurrency';
import type { ToolUseContext } from './context';
import { findToolByName } from './registry';
import { type RunToolUseOutcome, runToolUse } from './run-tool-use';
import { ToolError } from './tool';
import type { ToolEvent } from './tool-events';
import {
  errorResultMessage,
  errorText,
  NOT_RUN_INTERRUPTED_MESSAGE,
  siblingFailedMessage,
  toolResultBlockOf,
} from './tool-result-message';

export type StreamingToolExecutorOptions = {
  context: ToolUseContext;
  canUseTool: CanUseToolFn;
  hooks: HookRunner;
  /** How many calls may run at once (default 10). */
  maxConcurrency?: number;
};

type TrackedCall = {
  block: ToolUseBlock;
  assistantMessage: AssistantMessage;
  malformedInput: string | undefined;
  /** `delivered`: its results are in `results`, after every earlier call's. */
  status: 'queued' | 'executing' | 'completed' | 'delivered';
  /** Unknown until an async `isConcurrencySafe` answers; the queue waits at such a call. */
  safe: boolean | undefined;
  /** Everything the call produced except progress: permission denials, the tool_result, extras. */
  results: ToolEvent[];
  outcome: RunToolUseOutcome;
  /** Fired on interrupt (for `cancel` tools) and on discard. */
  controller: AbortController;
  signal: AbortSignal | undefined;
};

export class StreamingToolExecutor {
  private readonly calls: TrackedCall[] = [];
  /** Progress and starts as they happen, and each call's results once every earlier call's are in. */
  private readonly output = new Channel<ToolEvent>();
  private readonly canUseTool: CanUseToolFn;
  private readonly hooks: HookRunner;
  private readonly maxConcurrency: number;
  private readonly interruptSignal: AbortSignal;
  private currentContext: ToolUseContext;
  private siblingController = new AbortController();
  private stopReason: { stopReason: string } | undefined;
  private deliveredCount = 0;
  /** No more calls will be added. */
  private ended = false;
  private discarded = false;
  private listening = false;

  constructor(options: StreamingToolExecutorOptions) {
    this.currentContext = options.context;
    this.canUseTool = options.canUseTool;
    this.hooks = options.hooks;
    const limit = Math.floor(options.maxConcurrency ?? DEFAULT_MAX_TOOL_CONCURRENCY);
    this.maxConcurrency = Number.isFinite(limit) && limit >= 1 ? limit : DEFAULT_MAX_TOOL_CONCURRENCY;
    this.interruptSignal = options.context.abortSignal;
  }

  /** The context with every finished call's modifier applied, in the model's order. */
  get context(): ToolUseContext {
    return this.currentContext;
  }

  get preventContinuation(): { stopReason: string } | undefined {
    return this.stopReason;
  }

  /**
   * What the calls report, in order: progress and each call's start as they come, each call's results (permission
   * denials, the tool_result, messages the tool adds) in the model's order. It ends once `end()`
   * was called and every call's results are in, or at `discard()`. One reader at a time.
   */
  get results(): AsyncIterable<ToolEvent> {
    return this.output;
  }

  /** Whether some added call's results, or some progress, has not been read yet. */
  get hasPending(): boolean {
    return !this.discarded && (this.deliveredCount < this.calls.length || this.output.size > 0);
  }

  addTool(block: ToolUseBlock, assistantMessage: AssistantMessage, malformedInput?: string): void {
    if (this.discarded) return;
    if (this.ended) throw new Error('StreamingToolExecutor: a tool call was added after end().');
    const call: TrackedCall = {
      block,
      assistantMessage,
      malformedInput,
      status: 'queued',
      safe: undefined,
      results: [],
      outcome: {},
      controller: new AbortController(),
      signal: undefined,
    };
    this.calls.push(call);
    const safe =
      malformedInput === undefined ? isCallConcurrencySafe(block, this.currentContext.tools) : false;
    if (typeof safe === 'boolean') call.safe = safe;
    else {
      void safe.then((answer) => {
        call.safe = answer;
        this.processQueue();
      });
    }
    this.processQueue();
  }

  /** The response is complete: no call will be added, so `results` ends after the last one's. */
  end(): void {
    this.ended = true;
    this.deliverInOrder();
  }

  /** Drops this attempt (model fallback): running calls are aborted and nothing more is delivered. */
  discard(): void {
    if (this.discarded) return;
    this.discarded = true;
    const reason = new ToolError('Discarded: the model response that requested this call was dropped.');
    for (const call of this.calls) if (call.status === 'executing') call.controller.abort(reason);
    this.output.discard();
    this.syncInterruptListener();
  }

  private canExecute(safe: boolean): boolean {
    const executing = this.calls.filter((call) => call.status === 'executing');
    if (executing.length >= this.maxConcurrency) return false;
    return executing.length === 0 || (safe && executing.every((call) => call.safe === true));
  }

  /** Starts queued calls in order; the first that may not start holds back all after it. */
  private processQueue(): void {
    if (this.discarded) return;
    let finishedAny = false;
    for (const call of this.calls) {
      if (call.status !== 'queued') continue;
      if (this.interruptSignal.aborted) {
        call.results.push({
          type: 'message',
          message: errorResultMessage(call.block.id, NOT_RUN_INTERRUPTED_MESSAGE),
        });
        call.status = 'completed';
        finishedAny = true;
        continue;
      }
      if (call.safe === undefined || !this.canExecute(call.safe)) break;
      this.start(call);
    }
    this.syncInterruptListener();
    if (finishedAny) this.deliverInOrder();
  }

  private start(call: TrackedCall): void {
    call.status = 'executing';
    call.signal = AbortSignal.any([call.controller.signal, this.siblingController.signal]);
    void this.run(call, call.signal);
  }

  private async run(call: TrackedCall, signal: AbortSignal): Promise<void> {
    try {
      const events = runToolUse({
        block: call.block,
        assistantMessage: call.assistantMessage,
        context: this.currentContext,
        canUseTool: this.canUseTool,
        hooks: this.hooks,
        malformedInput: call.malformedInput,
        signal,
      });
      let step = await events.next();
      while (!step.done) {
        // Progress and the start are news now; everything else waits for the model's order.
        if (step.value.type === 'tool_progress' || step.value.type === 'tool_started')
          this.output.push(step.value);
        else call.results.push(step.value);
        step = await events.next();
      }
      call.outcome = step.value;
    } catch (error) {
      // runToolUse reports failures as results; this guards the one-result-per-call promise anyway.
      if (!call.results.some((event) => event.type === 'message')) {
        call.results.push({ type: 'message', message: errorResultMessage(call.block.id, errorText(error)) });
      }
    }
    call.status = 'completed';
    // Only a tool that says so makes its siblings pointless by failing (tool.ts).
    const tool = findToolByName(this.currentContext.tools, call.block.name);
    if (tool?.failureCancelsSiblings && isErrorResult(call) && !signal.aborted) {
      this.abortSiblings(tool.name);
    }
    this.deliverInOrder();
    this.processQueue();
  }

  /** Cancels calls running now; calls that start later get a fresh controller and still run. */
  private abortSiblings(toolName: string): void {
    const controller = this.siblingController;
    this.siblingController = new AbortController();
    controller.abort(new ToolError(siblingFailedMessage(toolName)));
  }

  /**
   * Hands finished calls' results to the reader in the model's order, applying each call's
   * context update first, so the next call to start (and the reader) sees it.
   */
  private deliverInOrder(): void {
    while (!this.discarded && this.deliveredCount < this.calls.length) {
      const call = this.calls[this.deliveredCount]!;
      if (call.status !== 'completed') break;
      call.status = 'delivered';
      this.deliveredCount++;
      this.applyOutcome(call);
      for (const event of call.results) this.output.push(event);
    }
    if (this.ended && this.deliveredCount === this.calls.length) this.output.end();
  }

  private applyOutcome(call: TrackedCall): void {
    const { contextModifier, preventContinuation } = call.outcome;
    if (preventContinuation) this.stopReason ??= preventContinuation;
    if (!contextModifier) return;
    try {
      this.currentContext = contextModifier(this.currentContext);
    } catch (error) {
      this.currentContext.notify({
        level: 'warning',
        message: `A ${call.block.name} context update failed: ${errorText(error)}`,
        toolUseId: call.block.id,
      });
    }
  }

  private readonly onInterrupt = (): void => {
    for (const call of this.calls) {
      if (call.status !== 'executing') continue;
      const tool = findToolByName(this.currentContext.tools, call.block.name);
      if (tool?.interruptBehavior() === 'cancel') call.controller.abort();
    }
    this.processQueue();
  };

  // Listen to the query's signal only while work is outstanding: the signal outlives this executor.
  private syncInterruptListener(): void {
    const needed =
      !this.discarded && this.calls.some((call) => call.status === 'queued' || call.status === 'executing');
    if (needed === this.listening) return;
    this.listening = needed;
    if (needed) this.interruptSignal.addEventListener('abort', this.onInterrupt, { once: true });
    else this.interruptSignal.removeEventListener('abort', this.onInterrupt);
  }
}

function isErrorResult(call: TrackedCall): boolean {
  return call.results.some(
    (event) =>
      event.type === 'message' && event.message.type === 'user' && toolResultBlockOf(event.message)?.is_error,
  );
}
