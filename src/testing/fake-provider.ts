/**
 * An in-process Provider for fast unit tests of the query loop: it plays scripted replies as
 * normalized StreamEvents (no HTTP, no SDK), throws scripted errors, and records every request.
 * Replies use the same `ScriptedReply` shape as the mock server's scenarios.
 */
import { AbortedError, abortableSleep as sleepUnlessAborted } from '../model/errors';
import type { BlockStart, ModelRequest, Provider, StreamEvent } from '../model/types';
import {
  estimateTokens,
  IdSource,
  type ResolvedReply,
  resolveReply,
  splitJson,
  splitText,
} from './mock-server/reply';
import type { ScriptedReplyInput } from './mock-server/scenario';

export type FakeStep =
  /** Play this reply. */
  | ScriptedReplyInput
  /** Throw this error before any event. */
  | Error
  | {
      reply?: ScriptedReplyInput;
      /** Thrown after `afterEvents` events of `reply` (or of a short default reply). */
      error?: Error;
      afterEvents?: number;
      /** Delay before each event, overriding the provider's `eventDelayMs`. */
      delayMs?: number;
    };

export type FakeScript = FakeStep[] | ((request: ModelRequest, callIndex: number) => FakeStep);

export type SleepFn = (ms: number, signal: AbortSignal | undefined) => Promise<void>;

export type FakeProviderOptions = {
  /** Default delay before each event; 0 (the default) streams without waiting. */
  eventDelayMs?: number;
  /** Injectable so tests can control time; must reject with AbortedError when `signal` aborts. */
  sleep?: SleepFn;
};

/** A real timer sleep that rejects with AbortedError as soon as the signal aborts. */
export const abortableSleep: SleepFn = (ms, signal) => sleepUnlessAborted(ms, signal);

const defaultReply: ScriptedReplyInput = {
  content: [{ type: 'text', text: 'A reply that a scripted error cuts short.' }],
};

type NormalizedStep = { reply?: ScriptedReplyInput; error?: Error; afterEvents?: number; delayMs?: number };

function normalizeStep(step: FakeStep): NormalizedStep {
  if (step instanceof Error) return { error: step, afterEvents: 0 };
  if ('content' in step) return { reply: step };
  return step;
}

export class FakeProvider implements Provider {
  readonly name = 'fake' as const;
  /** Every request received, deep-copied at call time so later mutation cannot change history. */
  readonly requests: ModelRequest[] = [];
  private readonly ids = new IdSource();
  private readonly sleep: SleepFn;
  private readonly eventDelayMs: number;

  constructor(
    private readonly script: FakeScript,
    options: FakeProviderOptions = {},
  ) {
    this.sleep = options.sleep ?? abortableSleep;
    this.eventDelayMs = options.eventDelayMs ?? 0;
  }

  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    const callIndex = this.requests.length;
    this.requests.push(structuredClone(request));
    if (signal?.aborted) throw new AbortedError();
    const step = normalizeStep(this.stepFor(request, callIndex));
    const reply = resolveReply(step.reply ?? defaultReply, this.ids, 'toolu_fake_', JSON.stringify(request));
    const events = toStreamEvents(reply, this.ids.next('msg_fake_'), request.model);
    const limit = step.error ? Math.min(step.afterEvents ?? 0, events.length) : events.length;
    const delay = step.delayMs ?? this.eventDelayMs;
    for (const event of events.slice(0, limit)) {
      if (delay > 0) await this.sleep(delay, signal);
      if (signal?.aborted) throw new AbortedError();
      yield event;
    }
    if (step.error) throw step.error;
  }

  async countTokens(request: ModelRequest): Promise<number> {
    return estimateTokens(JSON.stringify(request));
  }

  private stepFor(request: ModelRequest, callIndex: number): FakeStep {
    if (typeof this.script === 'function') return this.script(request, callIndex);
    const step = this.script[callIndex];
    if (step === undefined) {
      throw new Error(
        `FakeProvider: the script has ${this.script.length} step(s) but call #${callIndex + 1} was made ` +
          `(model ${request.model}, ${request.messages.length} message(s))`,
      );
    }
    return step;
  }
}

/** The normalized event sequence a real provider would produce for this reply. */
export function toStreamEvents(reply: ResolvedReply, messageId: string, model: string): StreamEvent[] {
  const events: StreamEvent[] = [
    { type: 'message_start', messageId, model, usage: { ...reply.usage, outputTokens: 0 } },
  ];
  reply.content.forEach((block, index) => {
    const start: BlockStart =
      block.type === 'tool_use'
        ? { type: 'tool_use', id: block.id, name: block.name }
        : block.type === 'redacted_thinking'
          ? { type: 'redacted_thinking', data: block.data }
          : { type: block.type };
    events.push({ type: 'block_start', index, block: start });
    if (block.type === 'text') {
      for (const text of splitText(block.text)) events.push({ type: 'text_delta', index, text });
    } else if (block.type === 'thinking') {
      for (const thinking of splitText(block.thinking))
        events.push({ type: 'thinking_delta', index, thinking });
      events.push({ type: 'signature_delta', index, signature: block.signature });
    } else if (block.type === 'tool_use') {
      const json = JSON.stringify(block.input);
      for (const partialJson of splitJson(json))
        events.push({ type: 'input_json_delta', index, partialJson });
      // Parsed from the streamed JSON, as a provider does, so the block is a fresh object.
      events.push({ type: 'block_stop', index, block: { ...block, input: JSON.parse(json) } });
      return;
    }
    events.push({ type: 'block_stop', index, block });
  });
  events.push({ type: 'message_stop', stopReason: reply.stopReason, stopSequence: null, usage: reply.usage });
  return events;
}
