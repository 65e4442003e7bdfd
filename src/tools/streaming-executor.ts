/**
 * Runs tool calls while the model is still streaming (seed 000 §3.3.3 StreamingToolExecutor).
 * Calls start the moment `addTool` sees them if the concurrency rule allows, so a quick read can
 * finish before the response does; results still come out strictly in the model's order.
 */

import type { HookRunner } from '../hooks/types';
import type { ToolUseBlock } from '../model/types';
import type { CanUseToolFn } from '../permissions/types';
import type { AssistantMessage } from '../session/messages';
import type { ToolUseContext } from './context';
import { DEFAULT_MAX_TOOL_CONCURRENCY, isCallConcurrencySafe } from './concurrency';
import { findToolByName } from './registry';
import { type RunToolUseOutcome, runToolUse } from './run-tool-use';
import { ToolError } from './tool';
import type { ToolEvent } from './tool-events';
import {
  errorResultMessage,
  errorText,
  NOT_RUN_INTERRUPTED_MESSAGE,
  SIBLING_BASH_FAILED_MESSAGE,
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
  status: 'queued' | 'executing' | 'completed' | 'yielded';
  /** Unknown until an async `isConcurrencySafe` answers; the queue waits at such a call. */
  safe: boolean | undefined;
  /** Everything the call produced except progress: permission denials, the tool_result, extras. */
  results: ToolEvent[];
  outcome: RunToolUseOutcome;
  /** Fired on interrupt (for `cancel` tools) and on discard. */
  controller: AbortController;
  signal: AbortSignal | undefined;
};

// Only a failing shell command makes its siblings pointless (they usually depend on its effect).
const SIBLING_ABORTING_TOOL = 'Bash';

export class StreamingToolExecutor {
  private readonly calls: TrackedCall[] = [];
  private readonly progress: ToolEvent[] = [];
  private readonly canUseTool: CanUseToolFn;
  private readonly hooks: HookRunner;
  private readonly maxConcurrency: number;
  private readonly interruptSignal: AbortSignal;
  private currentContext: ToolUseContext;
  private siblingController = new AbortController();
  private stopReason: { stopReason: string } | undefined;
  private yieldedCount = 0;
  private appliedCount = 0;
  private discarded = false;
  private listening = false;
  private version = 0;
  private waiters: Array<() => void> = [];

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

  /** Whether some added call's result has not been yielded yet. */
  get hasPending(): boolean {
    return !this.discarded && this.yieldedCount < this.calls.length;
  }

  addTool(block: ToolUseBlock, assistantMessage: AssistantMessage, malformedInput?: string): void {
    if (this.discarded) return;
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

  /** Progress so far and every finished result whose predecessors were all yielded. Never waits. */
  *getCompletedResults(): Generator<ToolEvent> {
    while (!this.discarded) {
      const progress = this.progress.shift();
      if (!progress) break;
      yield progress;
    }
    while (!this.discarded && this.yieldedCount < this.calls.length) {
      const call = this.calls[this.yieldedCount]!;
      if (call.status !== 'completed') return;
      call.status = 'yielded';
      this.yieldedCount++;
      for (const event of call.results) yield event;
    }
  }

  /** Waits for every call and yields the rest in model order, progress as it arrives. */
  async *getRemainingResults(): AsyncGenerator<ToolEvent> {
    while (!this.discarded) {
      const seen = this.version;
      yield* this.getCompletedResults();
      if (!this.hasPending && this.progress.length === 0) return;
      // Something may have finished while the consumer held a yielded event: look again first.
      if (this.version === seen) await this.nextChange();
    }
  }

  /** Drops this attempt (model fallback): running calls are aborted and nothing more is yielded. */
  discard(): void {
    if (this.discarded) return;
    this.discarded = true;
    const reason = new ToolError('Discarded: the model response that requested this call was dropped.');
    for (const call of this.calls) if (call.status === 'executing') call.controller.abort(reason);
    this.syncInterruptListener();
    this.changed();
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
    if (finishedAny) {
      this.applyFinishedInOrder();
      this.changed();
    }
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
        if (step.value.type === 'tool_progress') this.progress.push(step.value);
        else call.results.push(step.value);
        this.changed();
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
    if (call.block.name === SIBLING_ABORTING_TOOL && isErrorResult(call) && !signal.aborted) {
      this.abortSiblings();
    }
    this.applyFinishedInOrder();
    this.processQueue();
    this.changed();
  }

  /** Cancels calls running now; calls that start later get a fresh controller and still run. */
  private abortSiblings(): void {
    const controller = this.siblingController;
    this.siblingController = new AbortController();
    controller.abort(new ToolError(SIBLING_BASH_FAILED_MESSAGE));
  }

  private applyFinishedInOrder(): void {
    while (!this.discarded && this.appliedCount < this.calls.length) {
      const call = this.calls[this.appliedCount]!;
      if (call.status !== 'completed' && call.status !== 'yielded') return;
      this.appliedCount++;
      const { contextModifier, preventContinuation } = call.outcome;
      if (preventContinuation) this.stopReason ??= preventContinuation;
      if (!contextModifier) continue;
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

  private changed(): void {
    this.version++;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private nextChange(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

function isErrorResult(call: TrackedCall): boolean {
  return call.results.some(
    (event) =>
      event.type === 'message' && event.message.type === 'user' && toolResultBlockOf(event.message)?.is_error,
  );
}
