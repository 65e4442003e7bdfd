/**
 * One model call of the query loop: streams the response, turns finished blocks into messages,
 * starts each tool call the moment its block is complete, and yields tool results while the
 * model is still streaming.
 *
 * Block messages are withheld until the response ends, because only `message_stop` says whether
 * a max_tokens recovery will drop them. The first finished tool_use ends the withholding: a
 * response with complete tool calls is a normal tool turn whatever its stop reason, and its tool
 * results must not reach the consumer before the tool_use they answer.
 */
import { ConnectionError } from '../model/errors';
import { estimateBlockTokens } from '../model/tokens';
import type { ModelRequest, Provider, StopReason, StreamEvent, ToolUseBlock, Usage } from '../model/types';
import { type AssistantMessage, type Message, messageText } from '../session/messages';
import type { StreamingToolExecutor } from '../tools/streaming-executor';
import { errorResultMessage } from '../tools/tool-result-message';
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

type Tagged =
  | { source: 'model'; result: IteratorResult<StreamEvent> }
  | { source: 'model_error'; error: unknown }
  | { source: 'tools'; result: IteratorResult<QueryEvent> };

const DISCARDED_TOOL_TEXT = 'Not run: the model response that requested this call was discarded.';

export class ModelAttempt {
  /** The response's block messages, in order. */
  messages: AssistantMessage[] = [];
  toolUses: ToolUseBlock[] = [];
  /** Messages the executor produced (tool results and the extra messages tools add), in order. */
  toolResults: Message[] = [];
  /** Set once `message_stop` arrived. */
  stop: { reason: StopReason; usage: Usage } | undefined;
  /** Set when the call failed (including an abort). */
  error: unknown;
  private yieldedCount = 0;
  private withholding = true;
  private executor: StreamingToolExecutor;
  private readonly assembler: StreamAssembler;
  private readonly answered = new Set<string>();
  private toolStream: AsyncGenerator<QueryEvent> | undefined;
  private toolNext: Promise<Tagged> | undefined;
  private startedAt = Date.now();
  /** What `message_start` reported: the input side of the bill, known before the response ends. */
  private startUsage: Usage | undefined;

  constructor(private readonly input: ModelAttemptInput) {
    this.executor = input.createExecutor();
    this.assembler = new StreamAssembler(input.request.model);
  }

  get toolExecutor(): StreamingToolExecutor {
    return this.executor;
  }

  /** The text the model wrote in this response (for stop hooks). */
  get text(): string {
    return this.messages.map(messageText).join('');
  }

  /**
   * Streams the call. Never throws: a failure ends up in `error`. Events are yielded live; block
   * messages only once withholding ends (see the file comment) or when `releaseMessages` is called.
   */
  async *run(): AsyncGenerator<QueryEvent, void> {
    const { provider, request, signal } = this.input;
    const startedAt = Date.now();
    this.startedAt = startedAt;
    let iterator: AsyncIterator<StreamEvent> | undefined;
    try {
      iterator = provider.stream(request, signal)[Symbol.asyncIterator]();
      const source = iterator;
      const pull = (): Promise<Tagged> =>
        source.next().then(
          (result): Tagged => ({ source: 'model', result }),
          (error): Tagged => ({ source: 'model_error', error }),
        );
      let modelNext = pull();
      while (true) {
        // Tool results first when both are ready, so a finished read is reported without delay.
        const next = await (this.toolNext ? Promise.race([this.toolNext, modelNext]) : modelNext);
        if (next.source === 'tools') {
          yield* this.onToolEvent(next.result);
          continue;
        }
        if (next.source === 'model_error') throw next.error;
        if (next.result.done) break;
        yield* this.onStreamEvent(next.result.value, startedAt);
        modelNext = pull();
      }
    } catch (error) {
      this.error = error;
      void iterator?.return?.()?.catch(() => {});
      return;
    }
    if (!this.stop) {
      this.error = new ConnectionError('The model stream ended before the response was complete.', true);
    }
  }

  private async *onStreamEvent(event: StreamEvent, startedAt: number): AsyncGenerator<QueryEvent> {
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
        apiDurationMs: Date.now() - startedAt,
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
    this.pumpTools();
  }

  /** Yields the block messages not yielded yet. */
  *releaseMessages(): Generator<QueryEvent> {
    while (this.yieldedCount < this.messages.length) {
      const message = this.messages[this.yieldedCount++]!;
      yield { type: 'message', message };
    }
  }

  /** The block messages the consumer has already seen. */
  releasedMessages(): AssistantMessage[] {
    return this.messages.slice(0, this.yieldedCount);
  }

  /** The block messages still withheld (for the abort path: they become one aborted message). */
  takeWithheld(): AssistantMessage[] {
    const withheld = this.messages.slice(this.yieldedCount);
    this.yieldedCount = this.messages.length;
    return withheld;
  }

  /** One message with what had arrived before an interrupt, or undefined when nothing had. */
  abortedMessage(): AssistantMessage | undefined {
    const content = [
      ...this.takeWithheld().flatMap((m) => m.message.content),
      ...this.assembler.partialText(),
    ];
    if (content.length === 0) return undefined;
    return this.assembler.messageFor(content, { aborted: true });
  }

  /**
   * The usage of a response an interrupt cut short, which never got its `message_stop`: the
   * input as `message_start` reported it (or as estimated, where a wire reports usage only at
   * the end), the output estimated from what had streamed. Undefined when the response had not
   * started, or finished.
   */
  partialUsage(): { usage: Usage; apiDurationMs: number } | undefined {
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

  /** Waits for every started tool call and yields the rest of the results. */
  async *drainTools(): AsyncGenerator<QueryEvent> {
    while (this.toolNext) {
      const next = await this.toolNext;
      if (next.source === 'tools') yield* this.onToolEvent(next.result);
    }
    for await (const event of this.executor.getRemainingResults()) yield* this.record(event);
  }

  /**
   * Drops the attempt's tool calls. Tool uses the consumer has already seen still get a result
   * (an error saying why), so the transcript it keeps stays well-formed.
   */
  *abandon(reason: string = DISCARDED_TOOL_TEXT): Generator<QueryEvent> {
    this.executor.discard();
    this.toolStream = undefined;
    this.toolNext = undefined;
    yield* this.answerUnanswered(reason);
  }

  /** A synthetic error result for every yielded tool_use that has none. */
  *answerUnanswered(reason: string): Generator<QueryEvent> {
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

  /** Keeps one pending read on the executor's results while the model streams. */
  private pumpTools(): void {
    if (this.toolStream) return;
    const stream = this.executor.getRemainingResults();
    this.toolStream = stream;
    this.toolNext = this.pullTools(stream);
  }

  private pullTools(stream: AsyncGenerator<QueryEvent>): Promise<Tagged> {
    return stream.next().then((result): Tagged => ({ source: 'tools', result }));
  }

  private *onToolEvent(result: IteratorResult<QueryEvent>): Generator<QueryEvent> {
    const stream = this.toolStream;
    if (result.done || !stream) {
      // The executor had nothing pending; a later addTool starts a new read.
      this.toolStream = undefined;
      this.toolNext = undefined;
      return;
    }
    this.toolNext = this.pullTools(stream);
    yield* this.record(result.value);
  }

  private *record(event: QueryEvent): Generator<QueryEvent> {
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
