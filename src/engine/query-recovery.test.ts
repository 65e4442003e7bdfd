import { describe, expect, it } from 'vitest';
import { InvalidRequestError, MediaError, OverloadedError, PromptTooLongError } from '../model/errors';
import type { ModelRequest } from '../model/types';
import { createUserMessage } from '../session/messages';
import { FakeProvider } from '../testing/fake-provider';
import { toApiMessages } from './api-messages';
import {
  assistantTexts,
  callTool,
  EventProvider,
  eventsFor,
  MODEL,
  messagesOf,
  requestsOf,
  runQuery,
  text,
  toolResultsIn,
  toolUseIdsIn,
  transitionsOf,
} from './query-test-support';
import { createAssistantMessage } from './stream-assembler';

const truncated = (value: string) => ({
  content: [{ type: 'text' as const, text: value }],
  stopReason: 'max_tokens' as const,
});

describe('query: a small context window', () => {
  it('asks for at most a fifth of the window as output, half for the retry with a raised limit', async () => {
    const { provider, terminal } = await runQuery([truncated('Cut off'), text('Done.')], {
      contextWindowFor: () => 20_000,
    });
    const [first, second] = requestsOf(provider);
    expect(first!.maxTokens).toBe(4_000);
    expect(second!.maxTokens).toBe(10_000);
    expect(terminal.reason).toBe('completed');
  });

  it('leaves the large windows of the table alone', async () => {
    const { provider } = await runQuery([text('Done.')], { contextWindowFor: () => 200_000 });
    expect(requestsOf(provider)[0]!.maxTokens).toBe(32_000);
  });
});

describe('query: max_tokens recovery', () => {
  it('retries the same request with an escalated limit and never shows the truncated attempt', async () => {
    const { events, terminal, provider } = await runQuery([
      truncated('Cut off mid'),
      text('The full answer.'),
    ]);
    const [first, second] = requestsOf(provider);
    expect(first!.maxTokens).toBe(32_000);
    expect(second!.maxTokens).toBe(64_000);
    expect(second!.messages).toEqual(first!.messages);
    expect(transitionsOf(events)).toEqual(['max_output_tokens_escalate']);
    expect(assistantTexts(messagesOf(events))).toEqual(['The full answer.']);
    // The stream itself was still shown live.
    expect(
      events.some(
        (e) => e.type === 'stream_event' && e.event.type === 'text_delta' && e.event.text.includes('Cut'),
      ),
    ).toBe(true);
    expect(assistantTexts(terminal.messages)).toEqual(['The full answer.']);
    expect(terminal.reason).toBe('completed');
  });

  it('asks the model to continue at most three times, then fails with the output limit', async () => {
    const { events, terminal, provider } = await runQuery(() => truncated('More and more'));
    expect(transitionsOf(events)).toEqual([
      'max_output_tokens_escalate',
      'max_output_tokens_recovery',
      'max_output_tokens_recovery',
      'max_output_tokens_recovery',
    ]);
    expect(requestsOf(provider)).toHaveLength(5);
    const continuation = requestsOf(provider)[2]!.messages;
    expect(continuation.at(-2)?.role).toBe('assistant');
    expect(JSON.stringify(continuation.at(-1))).toMatch(/cut off by the output token limit/);
    expect(terminal.reason).toBe('model_error');
    expect(terminal.message).toMatch(/output token limit \(64000 tokens\).*3 continuations/);
    const last = terminal.messages.at(-1);
    expect(last?.type === 'assistant' && last.apiError).toBe(terminal.message);
  });

  it('treats a max_tokens stop with complete tool calls as a normal tool turn', async () => {
    const { events, terminal } = await runQuery([
      { ...callTool('toolu_m'), stopReason: 'max_tokens' },
      text('Done.'),
    ]);
    expect(transitionsOf(events)).toEqual(['next_turn']);
    expect(terminal.reason).toBe('completed');
  });
});

describe('query: model errors', () => {
  it('ends with model_error and shows the error text', async () => {
    const error = new InvalidRequestError('bad request field', { status: 400, requestId: 'req_9' });
    const { events, terminal } = await runQuery([error]);
    expect(terminal.reason).toBe('model_error');
    expect(terminal.message).toBe('bad request field (HTTP 400) [request req_9]');
    expect(terminal.error).toBe(error);
    const shown = messagesOf(events).find((m) => m.type === 'assistant');
    expect(shown?.type === 'assistant' && shown.apiError).toBe(terminal.message);
  });

  it('ends with image_error on a media error', async () => {
    const { terminal } = await runQuery([new MediaError('image too large')]);
    expect(terminal).toMatchObject({ reason: 'image_error', message: 'image too large' });
  });

  it('ends with prompt_too_long when no reactive compaction is configured', async () => {
    const { terminal } = await runQuery([new PromptTooLongError('prompt is too long', 300, 200)]);
    expect(terminal.reason).toBe('prompt_too_long');
  });

  it('compacts reactively once and retries with the compacted history', async () => {
    const summary = createUserMessage('Summary of earlier work.');
    let compactions = 0;
    const { events, terminal, provider } = await runQuery(
      [new PromptTooLongError('prompt is too long', 300, 200), text('Answer after compaction.')],
      {
        reactiveCompact: async () => {
          compactions++;
          return { messages: [summary] };
        },
      },
    );
    expect(compactions).toBe(1);
    expect(transitionsOf(events)).toEqual(['reactive_compact_retry']);
    expect(requestsOf(provider)[1]!.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Summary of earlier work.' }] },
    ]);
    expect(terminal.reason).toBe('completed');
    expect(terminal.messages[0]).toBe(summary);
  });

  it('gives up with prompt_too_long when the compacted request is still too long', async () => {
    let compactions = 0;
    const tooLong = () => new PromptTooLongError('prompt is too long', 300, 200);
    const { terminal } = await runQuery([tooLong(), tooLong()], {
      reactiveCompact: async ({ messages }) => {
        compactions++;
        return { messages };
      },
    });
    expect(compactions).toBe(1);
    expect(terminal.reason).toBe('prompt_too_long');
  });
});

describe('query: model fallback', () => {
  const thinkingHistory = () => [
    createUserMessage('First question.'),
    createAssistantMessage(
      [
        { type: 'thinking', thinking: 'Pondering.', signature: 'sig_primary' },
        { type: 'text', text: 'First answer.' },
      ],
      { id: 'msg_old', model: MODEL },
    ),
    createUserMessage('Second question.'),
  ];

  it('switches to the fallback model, drops thinking from history and says so', async () => {
    const fallbackProvider = new FakeProvider([text('Answer from the fallback.')]);
    const { events, terminal, provider } = await runQuery([new OverloadedError('Overloaded')], {
      messages: thinkingHistory(),
      fallback: { provider: fallbackProvider, model: 'claude-haiku-4-5' },
    });
    expect(requestsOf(provider)).toHaveLength(1);
    const retried = fallbackProvider.requests[0] as ModelRequest;
    expect(retried.model).toBe('claude-haiku-4-5');
    expect(JSON.stringify(retried.messages)).not.toContain('thinking');
    expect(JSON.stringify(requestsOf(provider)[0]!.messages)).toContain('sig_primary');
    expect(transitionsOf(events)).toEqual(['model_fallback']);
    const notice = messagesOf(events).find((m) => m.type === 'system');
    expect(notice).toMatchObject({ subtype: 'model_fallback' });
    expect(notice?.type === 'system' && notice.content).toMatch(
      /Switched to claude-haiku-4-5 because claude-sonnet-4-5 is overloaded/,
    );
    expect(terminal.reason).toBe('completed');
    const usage = events.filter((e) => e.type === 'model_usage');
    expect(usage.map((e) => e.type === 'model_usage' && e.model)).toEqual(['claude-haiku-4-5']);
  });

  it('ends with model_error on overload when no fallback is configured, suggesting one', async () => {
    const { terminal } = await runQuery([new OverloadedError('Overloaded', undefined, { status: 529 })]);
    expect(terminal).toMatchObject({
      reason: 'model_error',
      message:
        'Overloaded (HTTP 529) — Try again later, or pass --fallback-model <model> to switch when this one ' +
        'is overloaded.',
    });
  });

  it('does not suggest --fallback-model when the fallback is overloaded too', async () => {
    const fallbackProvider = new FakeProvider([
      new OverloadedError('Overloaded too', undefined, { status: 529 }),
    ]);
    const { terminal } = await runQuery([new OverloadedError('Overloaded', undefined, { status: 529 })], {
      fallback: { provider: fallbackProvider, model: 'claude-haiku-4-5' },
    });
    expect(terminal).toMatchObject({ reason: 'model_error', message: 'Overloaded too (HTTP 529)' });
  });

  it('drops a partial attempt cut by the overload and answers the tool_use it had shown', async () => {
    const fallbackProvider = new FakeProvider([text('Fallback answer.')]);
    const { events, terminal } = await runQuery(
      [{ reply: callTool('toolu_lost'), error: new OverloadedError('Overloaded'), afterEvents: 7 }],
      { fallback: { provider: fallbackProvider, model: 'claude-haiku-4-5' } },
    );
    expect(toolUseIdsIn(messagesOf(events))).toEqual(['toolu_lost']);
    expect(toolResultsIn(messagesOf(events)).map((r) => r.tool_use_id)).toEqual(['toolu_lost']);
    expect(toolUseIdsIn(terminal.messages)).toEqual([]);
    expect(toolResultsIn(terminal.messages)).toEqual([]);
    expect(assistantTexts(terminal.messages)).toEqual(['Fallback answer.']);
  });
});

describe('query: stream_reset', () => {
  it('discards the partial attempt and keeps only the restarted response', async () => {
    const stale = eventsFor(
      {
        content: [
          { type: 'text', text: 'Stale words.' },
          { type: 'tool_use', id: 'toolu_stale', name: 'Echo', input: { text: 'stale' } },
        ],
      },
      'msg_stale',
    );
    const cut = stale.findIndex((e) => e.type === 'block_stop' && e.block.type === 'tool_use') + 1;
    const provider = new EventProvider([
      [
        ...stale.slice(0, cut),
        { type: 'stream_reset', attempt: 1, reason: 'connection reset' },
        ...eventsFor(text('Fresh answer.'), 'msg_fresh'),
      ],
    ]);
    const { events, terminal } = await runQuery(provider);
    expect(terminal.reason).toBe('completed');
    expect(assistantTexts(terminal.messages)).toEqual(['Fresh answer.']);
    expect(toolUseIdsIn(terminal.messages)).toEqual([]);
    // What the consumer saw of the stale attempt stays well-formed: its tool_use got a result.
    expect(toolResultsIn(messagesOf(events)).map((r) => r.tool_use_id)).toEqual(['toolu_stale']);
    expect(toApiMessages(terminal.messages).map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});
