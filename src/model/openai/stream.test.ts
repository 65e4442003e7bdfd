import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../types';
import { chunk, run, usageChunk } from './scripted-fetch.fixture';

const types = (events: StreamEvent[]) => events.map((e) => ('index' in e ? `${e.type}:${e.index}` : e.type));

describe('OpenAIProvider streaming', () => {
  it('streams text as one block with message_start and message_stop', async () => {
    const { events, error } = await run({
      kind: 'sse',
      chunks: [
        chunk({ content: '' }),
        chunk({ content: 'Hel' }),
        chunk({ content: 'lo' }),
        chunk({ finish_reason: 'stop' }),
        usageChunk(10, 2),
      ],
    });
    expect(error).toBeUndefined();
    expect(types(events)).toEqual([
      'message_start',
      'block_start:0',
      'text_delta:0',
      'text_delta:0',
      'block_stop:0',
      'message_stop',
    ]);
    expect(events[0]).toEqual({
      type: 'message_start',
      messageId: 'chatcmpl-1',
      model: 'gpt-test',
      requestId: 'req_123',
      usage: { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
    });
    expect(events[4]).toEqual({ type: 'block_stop', index: 0, block: { type: 'text', text: 'Hello' } });
    expect(events[5]).toMatchObject({
      type: 'message_stop',
      stopReason: 'end_turn',
      usage: { inputTokens: 10 },
    });
  });

  it('skips an anonymous content-filter chunk and falls back to the requested model', async () => {
    const filterChunk = { id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: [] };
    const { events, error } = await run({
      kind: 'sse',
      chunks: [
        filterChunk,
        { ...chunk({ content: 'Hi' }, 'chatcmpl-9'), model: '' },
        chunk({ finish_reason: 'stop' }),
      ],
    });
    expect(error).toBeUndefined();
    expect(events[0]).toMatchObject({ type: 'message_start', messageId: 'chatcmpl-9', model: 'gpt-test' });
    expect(events.filter((e) => e.type === 'message_start')).toHaveLength(1);
  });

  it('turns reasoning_content and reasoning deltas into a thinking block before the text', async () => {
    for (const field of ['reasoning_content', 'reasoning'] as const) {
      const { events } = await run({
        kind: 'sse',
        chunks: [
          chunk({ [field]: 'Let me ' }),
          chunk({ [field]: 'think.' }),
          chunk({ content: 'Answer.' }),
          chunk({ finish_reason: 'stop' }),
        ],
      });
      expect(types(events)).toEqual([
        'message_start',
        'block_start:0',
        'thinking_delta:0',
        'thinking_delta:0',
        'block_stop:0',
        'block_start:1',
        'text_delta:1',
        'block_stop:1',
        'message_stop',
      ]);
      expect(events[1]).toEqual({ type: 'block_start', index: 0, block: { type: 'thinking' } });
      expect(events[4]).toMatchObject({
        block: { type: 'thinking', thinking: 'Let me think.', signature: '' },
      });
    }
  });

  it('closes the first of two parallel tool calls before the second one finishes', async () => {
    const { events, error } = await run({
      kind: 'sse',
      chunks: [
        chunk({ content: 'Checking.' }),
        chunk({
          tool_calls: [
            { index: 0, id: 'call_a', type: 'function', function: { name: 'Read', arguments: '' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"a.ts"}' } }] }),
        chunk({
          tool_calls: [
            { index: 1, id: 'call_b', type: 'function', function: { name: 'Grep', arguments: '{"pat' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: 'tern":"x"}' } }] }),
        chunk({ finish_reason: 'tool_calls' }),
        usageChunk(50, 20),
      ],
    });
    expect(error).toBeUndefined();
    expect(types(events)).toEqual([
      'message_start',
      'block_start:0',
      'text_delta:0',
      'block_stop:0',
      'block_start:1',
      'input_json_delta:1',
      'input_json_delta:1',
      'block_stop:1',
      'block_start:2',
      'input_json_delta:2',
      'input_json_delta:2',
      'block_stop:2',
      'message_stop',
    ]);
    const stopA = events.findIndex((e) => e.type === 'block_stop' && e.index === 1);
    const lastDeltaB = events.findLastIndex((e) => e.type === 'input_json_delta' && e.index === 2);
    expect(stopA).toBeLessThan(lastDeltaB);
    expect(events[4]).toEqual({
      type: 'block_start',
      index: 1,
      block: { type: 'tool_use', id: 'call_a', name: 'Read' },
    });
    expect(events[7]).toEqual({
      type: 'block_stop',
      index: 1,
      block: { type: 'tool_use', id: 'call_a', name: 'Read', input: { path: 'a.ts' } },
    });
    expect(events[11]).toEqual({
      type: 'block_stop',
      index: 2,
      block: { type: 'tool_use', id: 'call_b', name: 'Grep', input: { pattern: 'x' } },
    });
    expect(events[12]).toMatchObject({ type: 'message_stop', stopReason: 'tool_use' });
  });

  it('reports unparsable arguments as malformedInput with empty input, and empty arguments as {}', async () => {
    const { events } = await run({
      kind: 'sse',
      chunks: [
        chunk({
          tool_calls: [
            { index: 0, id: 'c1', function: { name: 'Edit', arguments: '{"path": "a.ts", "old' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 1, id: 'c2', function: { name: 'TodoRead', arguments: '' } }] }),
        chunk({ finish_reason: 'tool_calls' }),
      ],
    });
    const stops = events.filter((e) => e.type === 'block_stop');
    expect(stops[0]).toEqual({
      type: 'block_stop',
      index: 0,
      block: { type: 'tool_use', id: 'c1', name: 'Edit', input: {} },
      malformedInput: '{"path": "a.ts", "old',
    });
    expect(stops[1]).toEqual({
      type: 'block_stop',
      index: 1,
      block: { type: 'tool_use', id: 'c2', name: 'TodoRead', input: {} },
    });
  });

  it('generates call_<n> ids for tool calls that arrive without one', async () => {
    const { events } = await run({
      kind: 'sse',
      chunks: [
        chunk({ tool_calls: [{ index: 0, function: { name: 'Glob', arguments: '{"pattern":"*.ts"}' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { name: 'Glob', arguments: '{"pattern":"*.md"}' } }] }),
        // Older Ollama says "stop" even after tool calls.
        chunk({ finish_reason: 'stop' }),
      ],
    });
    const starts = events.flatMap((e) =>
      e.type === 'block_start' && e.block.type === 'tool_use' ? [e.block.id] : [],
    );
    expect(starts).toEqual(['call_0', 'call_1']);
    const stops = events.flatMap((e) =>
      e.type === 'block_stop' && e.block.type === 'tool_use' ? [e.block.id] : [],
    );
    expect(stops).toEqual(starts);
    expect(events.at(-1)).toMatchObject({ type: 'message_stop', stopReason: 'tool_use' });
  });

  it.each([
    ['stop', 'end_turn'],
    ['length', 'max_tokens'],
    ['tool_calls', 'tool_use'],
    ['function_call', 'tool_use'],
    ['content_filter', 'refusal'],
  ])('maps finish_reason %s to %s', async (finish, stopReason) => {
    const { events } = await run({
      kind: 'sse',
      chunks: [chunk({ content: 'x' }), chunk({ finish_reason: finish })],
    });
    expect(events.at(-1)).toMatchObject({ type: 'message_stop', stopReason });
  });

  it('streams a refusal as text and stops with refusal', async () => {
    const { events } = await run({
      kind: 'sse',
      chunks: [chunk({ refusal: 'I cannot help with that.' }), chunk({ finish_reason: 'stop' })],
    });
    expect(events.find((e) => e.type === 'block_stop')).toMatchObject({
      block: { type: 'text', text: 'I cannot help with that.' },
    });
    expect(events.at(-1)).toMatchObject({ stopReason: 'refusal' });
  });

  it('reads usage from the final chunk, separating cached prompt tokens', async () => {
    const { events } = await run({
      kind: 'sse',
      chunks: [chunk({ content: 'x' }), chunk({ finish_reason: 'stop' }), usageChunk(1200, 40, 1000)],
    });
    expect(events.at(-1)).toEqual({
      type: 'message_stop',
      stopReason: 'end_turn',
      stopSequence: null,
      usage: { inputTokens: 200, outputTokens: 40, cacheReadInputTokens: 1000, cacheCreationInputTokens: 0 },
    });
  });
});
