/**
 * Fixtures for the query loop's tests: default parameters around a FakeProvider, a provider that
 * plays hand-written event sequences (for gates, resets and interrupts), and small tools.
 */

import { noopHooks } from '../hooks/types';
import * as z from '../lib/zod';
import { AbortedError } from '../model/errors';
import type { ModelRequest, Provider, StreamEvent, ToolResultBlock } from '../model/types';
import { allowAll } from '../permissions/types';
import { type AssistantMessage, createUserMessage, type Message } from '../session/messages';
import { FakeProvider, type FakeScript, toStreamEvents } from '../testing/fake-provider';
import type { ScriptedReplyInput } from '../testing/mock-server/scenario';
import { collect, makeContext } from '../tools/test-support';
import { type AnyTool, buildTool } from '../tools/tool';
import { query } from './query';
import type { QueryEvent, QueryParams, Terminal } from './query-types';

export const MODEL = 'claude-sonnet-4-5';

export type Run = { events: QueryEvent[]; terminal: Terminal };

export function baseParams(provider: Provider, overrides: Partial<QueryParams> = {}): QueryParams {
  return {
    messages: [createUserMessage('Please help.')],
    systemPrompt: [{ text: 'You are a test assistant.' }],
    toolUseContext: makeContext([echoTool()]),
    canUseTool: allowAll,
    provider,
    model: MODEL,
    hooks: noopHooks,
    ...overrides,
  };
}

export async function runQuery(
  script: FakeScript | Provider,
  overrides: Partial<QueryParams> = {},
): Promise<Run & { provider: Provider }> {
  const provider = Array.isArray(script) || typeof script === 'function' ? new FakeProvider(script) : script;
  const { events, returned } = await collect(query(baseParams(provider, overrides)));
  return { events, terminal: returned, provider };
}

/** The requests a FakeProvider or EventProvider received. */
export function requestsOf(provider: Provider): ModelRequest[] {
  return (provider as FakeProvider | EventProvider).requests;
}

export const text = (value: string): ScriptedReplyInput => ({ content: [{ type: 'text', text: value }] });

export const callTool = (id: string, input: Record<string, unknown> = { text: id }): ScriptedReplyInput => ({
  content: [{ type: 'tool_use', id, name: 'Echo', input }],
});

/** A concurrency-safe read tool that echoes its input; `call` can be replaced per test. */
export function echoTool(call?: AnyTool['call'], extra: Partial<Pick<AnyTool, 'interruptBehavior'>> = {}) {
  return buildTool({
    name: 'Echo',
    tier: 'read',
    inputSchema: z.object({ text: z.string() }),
    prompt: 'Echoes its input.',
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    call: call ?? (async (input: { text: string }) => ({ data: `echo: ${input.text}` })),
    ...extra,
  });
}

/** The normalized events a provider would stream for a reply. */
export function eventsFor(reply: ScriptedReplyInput, messageId = 'msg_1'): StreamEvent[] {
  const content = reply.content.map((block, i) => {
    if (block.type === 'tool_use') return { ...block, id: block.id ?? `toolu_${i}` };
    if (block.type === 'thinking') return { ...block, signature: block.signature ?? 'sig' };
    return block;
  });
  const hasTool = content.some((b) => b.type === 'tool_use');
  return toStreamEvents(
    {
      content,
      stopReason: reply.stopReason ?? (hasTool ? 'tool_use' : 'end_turn'),
      usage: {
        inputTokens: 10,
        outputTokens: 10,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
        ...reply.usage,
      },
    },
    messageId,
    MODEL,
  );
}

/** One scripted call: events to play, with optional async steps (gates) between them. */
export type EventStep = StreamEvent | (() => Promise<void>);

/** A provider that plays hand-written event sequences, one per call. */
export class EventProvider implements Provider {
  readonly name = 'fake' as const;
  readonly requests: ModelRequest[] = [];

  constructor(private readonly calls: EventStep[][]) {}

  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    this.requests.push(structuredClone(request));
    const steps = this.calls[this.requests.length - 1];
    if (!steps) throw new Error(`EventProvider: no script for call #${this.requests.length}`);
    for (const step of steps) {
      if (signal?.aborted) throw new AbortedError();
      if (typeof step === 'function') await step();
      else yield step;
    }
  }
}

/** A step that waits until the signal aborts, then fails the stream as a provider would. */
export function untilAborted(signal: AbortSignal): () => Promise<void> {
  return () =>
    new Promise((_, reject) => {
      const fail = () => reject(new AbortedError());
      if (signal.aborted) fail();
      else signal.addEventListener('abort', fail, { once: true });
    });
}

export function messagesOf(events: readonly QueryEvent[]): Message[] {
  return events.flatMap((e) => (e.type === 'message' ? [e.message] : []));
}

export function assistantTexts(messages: readonly Message[]): string[] {
  return messages
    .filter((m): m is AssistantMessage => m.type === 'assistant')
    .flatMap((m) => m.message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])));
}

export function transitionsOf(events: readonly QueryEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'transition' ? [e.transition.reason] : []));
}

export function toolResultsIn(messages: readonly Message[]): ToolResultBlock[] {
  return messages.flatMap((m) =>
    m.type === 'user' && typeof m.message.content !== 'string'
      ? m.message.content.filter((b): b is ToolResultBlock => b.type === 'tool_result')
      : [],
  );
}

/** Every tool_use id in the messages, to check each got exactly one result. */
export function toolUseIdsIn(messages: readonly Message[]): string[] {
  return messages.flatMap((m) =>
    m.type === 'assistant' ? m.message.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : [],
  );
}
