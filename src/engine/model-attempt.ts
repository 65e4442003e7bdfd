/**
 * One model call of the query loop: streams the response, turns finished blocks into messages,
 * starts each tool call the moment its block is complete, and yields tool results while the
 * model is still streaming.
 *
 * Block messages are withheld until the response ends, because only `message_stop` says whether
 * a max_tokens recovery will drop them. The first finished tool_use ends the withholding: a
 * response with complete tool calls is a normal tool turn whatever its stop reason, and its tool
 * results must not reach the consumer before the tool_use they answer.
 *
 * `run()` says how the call ended as an `AttemptEnd` (attempt-end.ts), which carries the one way
 * to complete it.
 */
import { type Merged, merge } from '../lib/channel';
import { ConnectionError } from '../model/errors';
import { estimateBlockTokens } from '../model/tokens';
import type { ModelRequest, Provider, StopReason, StreamEvent, ToolUseBlock, Usage } from '../model/types';
import { type AssistantMessage, type Message, messageText } from '../session/messages';
import type { StreamingToolExecutor } from '../tools/streaming-executor';
import type { ToolEvent } from '../tools/tool-events';
import { errorResultMessage } from '../tools/tool-result-message';
import type { AttemptEnd, ResponseStop, ToolTurnResult } from './attempt-end';
import type { QueryEvent } from './query-types';
import { StreamAssembler } from './stream-assembler';

export type ModelAttemptInput = {
  provider: Provider;
  request: ModelRequest;
  signal: AbortSignal;
  /** A fresh executor: one per response, since `stream_reset` discards the old one. */
  createExecutor: () => StreamingToolExecutor;
  /** The request's estimated input tokens, for a response cut off before any usage arrived. */
  estimatedInputTokens?: number;
};

/** One item of the merged stream: the model's events, then its end; tool events any time. */
type Item =
  | { source: 'model'; event: StreamEvent }
  | { source: 'model_end'; error?: unknown }
  | { source: 'tools'; executor: StreamingToolExecutor; event: ToolEvent };

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };
const DISCARDED_TOOL_TEXT = 'Not run: the model response that requested this call was discarded.';
const NO_RESULT_TEXT = 'The tool call ended without a result.';
const INTERRUPTED_TOOL_TEXT = 'Interrupted by user: the tool call was not run.';

export class ModelAttempt {
  /** The response's block messages, in order. */
  private messages: AssistantMessage[] = [];
  private toolUses: ToolUseBlock[] = [];
  /** Messages the executor produced (tool results and the extra messages tools add), in order. */
  private toolResults: Message[] = [];
  private stop: ResponseStop | undefined;
  private yieldedCount = 0;
  private withholding = true;
  private executor: StreamingToolExecutor;
  private readonly assembler: StreamAssembler;
  private readonly answered = new Set<string>();
  /**
   * The model's stream and the tool calls' results as one stream. `run()` reads it up to the
   * model's end; a finish reads the rest, which is then only tool results.
   */
  private readonly items: Merged<Item>;
  private startedAt = Date.now();
  /** What `message_start` reported: the input side of the bill, known before the response ends. */
  private startUsage: Usage | undefined;
  private finished = false;

  constructor(private readonly input: ModelAttemptInput) {
    this.executor = input.createExecutor();
    this.assembler = new StreamAssembler(input.request.model);
    this.items = merge<Item>([this.modelItems(), this.toolItems()]);
  }

  /** Streams the call, yielding its events live, and says how it ended. Never throws. */
  async *run(): AsyncGenerator<QueryEvent, AttemptEnd> {
    this.startedAt = Date.now();
    let error: unknown;
    try {
      while (true) {
        const step = await this.items.next();
        if (step.done) break;
        const item = step.value;
        if (item.source === 'tools') yield* this.onToolItem(item);
        else if (item.source === 'model') yield* this.onStreamEvent(item.event);
        else {
          error = item.error;
          break;
        }
      }
    } catch (failure) {
      error = failure;
    }
    // The response is over: no call will be added, so the results end after the last one's.
    this.executor.end();
    if (error === undefined && !this.stop) {
      error = new ConnectionError('The model stream ended before the response was complete.', true);
    }
    return this.ending(error);
  }

  private ending(error: unknown): AttemptEnd {
    const stop = this.stop;
    if (this.input.signal.aborted && !stop) {
      return { type: 'aborted', finishAbort: () => this.finishOnce(this.finishAbort()) };
    }
    if (error !== undefined || !stop) {
      return { type: 'failed', error, finishError: () => this.finishOnce(this.finishError()) };
    }
    if (this.toolUses.length > 0) {
      return { type: 'tool_use', stop, finishToolTurn: () => this.finishOnce(this.finishToolTurn()) };
    }
    return {
      type: 'answer',
      stop,
      text: this.messages.map(messageText).join(''),
      finishAnswer: () => this.finishOnce(this.finishAnswer()),
    };
  }

  private finishOnce<G>(finish: G): G {
    if (this.finished) throw new Error('ModelAttempt: this model call was already finished.');
    this.finished = true;
    return finish;
  }

  private async *finishToolTurn(): AsyncGenerator<QueryEvent, ToolTurnResult> {
    yield* this.releaseMessages();
    yield* this.drainTools();
    // Safety net: the executor promises one result per call; a transcript must never lack one.
    yield* this.answerUnanswered(NO_RESULT_TEXT);
    return {
      messages: [...this.messages, ...this.toolResults],
      context: this.executor.context,
      preventContinuation: this.executor.preventContinuation,
    };
  }

  private async *finishAbort(): AsyncGenerator<QueryEvent, Message[]> {
    // What streamed before the interrupt was billed: it counts in the turn's usage and cost.
    const partial = this.partialUsage();
    if (partial) yield { type: 'model_usage', model: this.input.request.model, ...partial };
    // What the consumer saw stays in history; what had not been shown becomes one aborted message.
    const history: Message[] = this.messages.slice(0, this.yieldedCount);
    const aborted = this.abortedMessage();
    if (aborted) {
      history.push(aborted);
      yield { type: 'message', message: aborted };
    }
    // The executor answers calls it never ran ("interrupted") and lets blocking ones finish.
    yield* this.drainTools();
    yield* this.answerUnanswered(INTERRUPTED_TOOL_TEXT);
    history.push(...this.toolResults);
    return history;
  }

  private async *finishError(): AsyncGenerator<QueryEvent, void> {
    yield* this.abandon();
    // Nothing is left to read but what the dropped calls had produced.
    while (!(await this.items.next()).done) {}
  }

  private *finishAnswer(): Generator<QueryEvent, AssistantMessage[]> {
    yield* this.releaseMessages();
    return this.messages;
  }

  // The two sources below are plain iterators, not generators: every streamed event and tool
  // result passes through them, and a generator's yield costs several promise jobs each time.

  /** The model's events as items, then one end item (with the error, if the call failed). */
  private modelItems(): AsyncIterable<Item> {
    const { provider, request, signal } = this.input;
    let stream: AsyncIterator<StreamEvent> | undefined;
    let ended = false;
    // An item, not a throw: a throw would make the merge close the tools' side, whose calls
    // must still be drained (interrupt) or answered (failure).
    const end = (error?: unknown): IteratorResult<Item> => {
      ended = true;
      if (error === undefined) return { done: false, value: { source: 'model_end' } };
      void stream?.return?.()?.catch(() => {});
      return { done: false, value: { source: 'model_end', error } };
    };
    const item = (step: IteratorResult<StreamEvent>): IteratorResult<Item> =>
      step.done ? end() : { done: false, value: { source: 'model', event: step.value } };
    const next = (): Promise<IteratorResult<Item>> => {
      if (ended) return Promise.resolve(DONE);
      try {
        stream ??= provider.stream(request, signal)[Symbol.asyncIterator]();
        return stream.next().then(item, end);
      } catch (error) {
        return Promise.resolve(end(error));
      }
    };
    return { [Symbol.asyncIterator]: () => ({ next }) };
  }

  /** The current executor's events; after a `stream_reset`, the next executor's. */
  private toolItems(): AsyncIterable<Item> {
    let executor = this.executor;
    let reader = executor.results[Symbol.asyncIterator]();
    const item = (step: IteratorResult<ToolEvent>): IteratorResult<Item> | Promise<IteratorResult<Item>> => {
      if (!step.done) return { done: false, value: { source: 'tools', executor, event: step.value } };
      if (executor === this.executor) return DONE;
      // A reset discarded this executor (which ended its results): go on with the new one.
      executor = this.executor;
      reader = executor.results[Symbol.asyncIterator]();
      return reader.next().then(item);
    };
    const next = (): Promise<IteratorResult<Item>> => reader.next().then(item);
    // Closing releases the reader's pending read; the executor's results stay its own.
    const close = (): Promise<IteratorResult<Item>> => {
      void reader.return?.();
      return Promise.resolve(DONE);
    };
    return { [Symbol.asyncIterator]: () => ({ next, return: close }) };
  }

  private async *onStreamEvent(event: StreamEvent): AsyncGenerator<QueryEvent> {
    yield { type: 'stream_event', event, model: this.input.request.model };
    if (event.type === 'stream_reset') {
      yield* this.resetAttempt();
      return;
    }
    if (event.type === 'message_start') this.startUsage = event.usage;
    if (event.type === 'message_stop') {
      this.stop = { reason: event.stopReason, usage: event.usage };
      this.finalizeWithheld(event.stopReason, event.usage);
      yield {
        type: 'model_usage',
        model: this.input.request.model,
        usage: event.usage,
        apiDurationMs: Date.now() - this.startedAt,
      };
      return;
    }
    const message = this.assembler.apply(event);
    if (!message) return;
    this.messages.push(message);
    const block = message.message.content[0];
    if (block?.type !== 'tool_use') {
      if (!this.withholding) yield* this.releaseMessages();
      return;
    }
    this.withholding = false;
    yield* this.releaseMessages();
    this.toolUses.push(block);
    const malformed = event.type === 'block_stop' ? event.malformedInput : undefined;
    this.executor.addTool(block, message, malformed);
  }

  /** Yields the block messages not yielded yet. */
  private *releaseMessages(): Generator<QueryEvent> {
    while (this.yieldedCount < this.messages.length) {
      const message = this.messages[this.yieldedCount++]!;
      yield { type: 'message', message };
    }
  }

  /** One message with what had arrived before an interrupt, or undefined when nothing had. */
  private abortedMessage(): AssistantMessage | undefined {
    const withheld = this.messages.slice(this.yieldedCount);
    this.yieldedCount = this.messages.length;
    const content = [...withheld.flatMap((m) => m.message.content), ...this.assembler.partialText()];
    if (content.length === 0) return undefined;
    return this.assembler.messageFor(content, { aborted: true });
  }

  /**
   * The usage of a response an interrupt cut short, which never got its `message_stop`: the
   * input as `message_start` reported it (or as estimated, where a wire reports usage only at
   * the end), the output estimated from what had streamed. Undefined when the response had not
   * started, or finished.
   */
  private partialUsage(): { usage: Usage; apiDurationMs: number } | undefined {
    if (!this.startUsage || this.stop) return undefined;
    const streamed = [...this.messages.flatMap((m) => m.message.content), ...this.assembler.partialText()];
    const outputTokens = streamed.reduce((sum, block) => sum + estimateBlockTokens(block), 0);
    const usage: Usage = {
      ...this.startUsage,
      inputTokens: this.startUsage.inputTokens || (this.input.estimatedInputTokens ?? 0),
      outputTokens: Math.max(this.startUsage.outputTokens, outputTokens),
    };
    return { usage, apiDurationMs: Date.now() - this.startedAt };
  }

  /** Reads the rest of the merged stream: the current executor's results, as they come. */
  private async *drainTools(): AsyncGenerator<QueryEvent> {
    while (true) {
      const step = await this.items.next();
      if (step.done) return;
      if (step.value.source === 'tools') yield* this.onToolItem(step.value);
    }
  }

  /**
   * Drops the attempt's tool calls. Tool uses the consumer has already seen still get a result
   * (an error saying why), so the transcript it keeps stays well-formed.
   */
  private *abandon(): Generator<QueryEvent> {
    this.executor.discard();
    yield* this.answerUnanswered(DISCARDED_TOOL_TEXT);
  }

  /** A synthetic error result for every yielded tool_use that has none. */
  private *answerUnanswered(reason: string): Generator<QueryEvent> {
    for (const block of this.toolUses) {
      if (this.answered.has(block.id)) continue;
      this.answered.add(block.id);
      const message = errorResultMessage(block.id, reason);
      this.toolResults.push(message);
      yield { type: 'message', message };
    }
  }

  private *resetAttempt(): Generator<QueryEvent> {
    yield* this.abandon();
    this.executor = this.input.createExecutor();
    this.assembler.reset();
    // What the consumer saw of the dropped attempt is answered above; none of it is history.
    this.messages = [];
    this.toolUses = [];
    this.toolResults = [];
    this.yieldedCount = 0;
    this.withholding = true;
  }

  /** Once a response ends without tool calls, its withheld messages carry the final usage. */
  private finalizeWithheld(stopReason: StopReason, usage: Usage): void {
    for (let i = this.yieldedCount; i < this.messages.length; i++) {
      const message = this.messages[i]!;
      const last = i === this.messages.length - 1;
      this.messages[i] = {
        ...message,
        message: { ...message.message, usage: { ...usage }, stop_reason: last ? stopReason : null },
      };
    }
  }

  private *onToolItem(item: Extract<Item, { source: 'tools' }>): Generator<QueryEvent> {
    // Events a discarded executor had produced before the reset belong to no one.
    if (item.executor !== this.executor) return;
    const event = item.event;
    if (event.type === 'message') {
      this.toolResults.push(event.message);
      const message = event.message;
      if (message.type === 'user' && typeof message.message.content !== 'string') {
        for (const block of message.message.content) {
          if (block.type === 'tool_result') this.answered.add(block.tool_use_id);
        }
      }
    }
    yield event;
  }
}
