import { describe, expect, it } from 'vitest';
import type { ModelRequest, StreamEvent } from '../types';
import {
  blockDelta,
  blockStart,
  blockStop,
  fakeFetch,
  messageEvents,
  REQUEST_ID,
  type Reply,
  type SseEvent,
} from './fake-fetch';
import { AnthropicProvider } from './provider';

const request: ModelRequest = {
  model: 'claude-opus-5-5',
  system: [{ text: 'You are terse.' }],
  messages: [{ role: 'user', content: 'hi' }],
  maxTokens: 1024,
};

async function run(...replies: Reply[]): Promise<StreamEvent[]> {
  const { fetch } = fakeFetch(...replies);
  const provider = new AnthropicProvider({ apiKey: 'sk-test', fetch });
  const events: StreamEvent[] = [];
  for await (const event of provider.stream(request)) events.push(event);
  return events;
}

const sse = (content: SseEvent[], options?: Parameters<typeof messageEvents>[1]): Reply => ({
  kind: 'sse',
  events: messageEvents(content, options),
});

describe('AnthropicProvider.stream normalization', () => {
  it('turns a text response into start, deltas, finished block and stop, skipping pings', async () => {
    const events = await run(
      sse([
        blockStart(0, { type: 'text', text: '' }),
        blockDelta(0, { type: 'text_delta', text: 'Hel' }),
        blockDelta(0, { type: 'text_delta', text: 'lo' }),
        blockStop(0),
      ]),
    );
    expect(events).toEqual([
      {
        type: 'message_start',
        messageId: 'msg_01',
        model: 'claude-opus-5-5',
        requestId: REQUEST_ID,
        usage: { inputTokens: 10, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
      },
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: 'Hel' },
      { type: 'text_delta', index: 0, text: 'lo' },
      { type: 'block_stop', index: 0, block: { type: 'text', text: 'Hello' } },
      {
        type: 'message_stop',
        stopReason: 'end_turn',
        stopSequence: null,
        usage: { inputTokens: 10, outputTokens: 5, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
      },
    ]);
  });

  it('accumulates thinking and its signature, then a text block', async () => {
    const events = await run(
      sse([
        blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
        blockDelta(0, { type: 'thinking_delta', thinking: 'Let me ' }),
        blockDelta(0, { type: 'thinking_delta', thinking: 'think.' }),
        blockDelta(0, { type: 'signature_delta', signature: 'sig-part-1' }),
        blockDelta(0, { type: 'signature_delta', signature: '+2' }),
        blockStop(0),
        blockStart(1, { type: 'text', text: '' }),
        blockDelta(1, { type: 'text_delta', text: 'Done.' }),
        blockStop(1),
      ]),
    );
    const kinds = events.map((e) => e.type);
    expect(kinds).toEqual([
      'message_start',
      'block_start',
      'thinking_delta',
      'thinking_delta',
      'signature_delta',
      'signature_delta',
      'block_stop',
      'block_start',
      'text_delta',
      'block_stop',
      'message_stop',
    ]);
    expect(events[1]).toEqual({ type: 'block_start', index: 0, block: { type: 'thinking' } });
    expect(events[4]).toEqual({ type: 'signature_delta', index: 0, signature: 'sig-part-1' });
    expect(events[6]).toEqual({
      type: 'block_stop',
      index: 0,
      block: { type: 'thinking', thinking: 'Let me think.', signature: 'sig-part-1+2' },
    });
    expect(events[9]).toEqual({ type: 'block_stop', index: 1, block: { type: 'text', text: 'Done.' } });
  });

  it('passes redacted thinking through with its opaque data', async () => {
    const events = await run(
      sse([blockStart(0, { type: 'redacted_thinking', data: 'ENCRYPTED==' }), blockStop(0)]),
    );
    expect(events.slice(1, 3)).toEqual([
      { type: 'block_start', index: 0, block: { type: 'redacted_thinking', data: 'ENCRYPTED==' } },
      { type: 'block_stop', index: 0, block: { type: 'redacted_thinking', data: 'ENCRYPTED==' } },
    ]);
  });

  it('parses the input of several tool_use blocks from split JSON deltas', async () => {
    const events = await run(
      sse(
        [
          blockStart(0, { type: 'text', text: '' }),
          blockDelta(0, { type: 'text_delta', text: 'Reading both.' }),
          blockStop(0),
          blockStart(1, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} }),
          blockDelta(1, { type: 'input_json_delta', partial_json: '' }),
          blockDelta(1, { type: 'input_json_delta', partial_json: '{"file_' }),
          blockDelta(1, { type: 'input_json_delta', partial_json: 'path": "/a.ts"' }),
          blockDelta(1, { type: 'input_json_delta', partial_json: ', "limit": 20}' }),
          blockStop(1),
          blockStart(2, { type: 'tool_use', id: 'toolu_2', name: 'Grep', input: {} }),
          blockDelta(2, { type: 'input_json_delta', partial_json: '{"pattern": "fo' }),
          blockDelta(2, { type: 'input_json_delta', partial_json: 'o\\n", "paths": ["src"]}' }),
          blockStop(2),
        ],
        { stopReason: 'tool_use' },
      ),
    );
    expect(events.filter((e) => e.type === 'block_start').map((e) => e.block)).toEqual([
      { type: 'text' },
      { type: 'tool_use', id: 'toolu_1', name: 'Read' },
      { type: 'tool_use', id: 'toolu_2', name: 'Grep' },
    ]);
    const jsonDeltas = events.filter((e) => e.type === 'input_json_delta');
    expect(jsonDeltas.map((e) => [e.index, e.partialJson])).toEqual([
      [1, ''],
      [1, '{"file_'],
      [1, 'path": "/a.ts"'],
      [1, ', "limit": 20}'],
      [2, '{"pattern": "fo'],
      [2, 'o\\n", "paths": ["src"]}'],
    ]);
    const stops = events.filter((e) => e.type === 'block_stop');
    expect(stops[1]).toEqual({
      type: 'block_stop',
      index: 1,
      block: { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/a.ts', limit: 20 } },
    });
    expect(stops[2]).toEqual({
      type: 'block_stop',
      index: 2,
      block: { type: 'tool_use', id: 'toolu_2', name: 'Grep', input: { pattern: 'foo\n', paths: ['src'] } },
    });
    expect(events.at(-1)).toMatchObject({ type: 'message_stop', stopReason: 'tool_use' });
  });

  it('gives a tool with no input deltas an empty object input', async () => {
    const events = await run(
      sse([blockStart(0, { type: 'tool_use', id: 'toolu_1', name: 'TodoRead', input: {} }), blockStop(0)]),
    );
    const stop = events.find((e) => e.type === 'block_stop');
    expect(stop).toEqual({
      type: 'block_stop',
      index: 0,
      block: { type: 'tool_use', id: 'toolu_1', name: 'TodoRead', input: {} },
    });
    expect(stop).not.toHaveProperty('malformedInput');
  });

  it.each([
    ['truncated JSON', '{"command": "ls'],
    ['a JSON array', '["not", "an", "object"]'],
  ])('reports %s as malformed input with an empty input object', async (_label, json) => {
    const events = await run(
      sse([
        blockStart(0, { type: 'tool_use', id: 'toolu_9', name: 'Bash', input: {} }),
        blockDelta(0, { type: 'input_json_delta', partial_json: json }),
        blockStop(0),
      ]),
    );
    expect(events.find((e) => e.type === 'block_stop')).toEqual({
      type: 'block_stop',
      index: 0,
      block: { type: 'tool_use', id: 'toolu_9', name: 'Bash', input: {} },
      malformedInput: json,
    });
  });

  it('reports cache token counts and merges the final output count into the start usage', async () => {
    const events = await run(
      sse([blockStart(0, { type: 'text', text: '' }), blockStop(0)], {
        startUsage: {
          input_tokens: 12,
          output_tokens: 1,
          cache_read_input_tokens: 3000,
          cache_creation_input_tokens: 450,
        },
        deltaUsage: { output_tokens: 321, input_tokens: null, cache_read_input_tokens: null },
      }),
    );
    expect(events[0]).toMatchObject({
      type: 'message_start',
      usage: { inputTokens: 12, outputTokens: 1, cacheReadInputTokens: 3000, cacheCreationInputTokens: 450 },
    });
    expect(events.at(-1)).toEqual({
      type: 'message_stop',
      stopReason: 'end_turn',
      stopSequence: null,
      usage: {
        inputTokens: 12,
        outputTokens: 321,
        cacheReadInputTokens: 3000,
        cacheCreationInputTokens: 450,
      },
    });
  });

  it('prefers counts the final message_delta repeats over the ones from message_start', async () => {
    const events = await run(
      sse([], {
        startUsage: { input_tokens: 12, cache_read_input_tokens: 0 },
        deltaUsage: {
          output_tokens: 9,
          input_tokens: 15,
          cache_read_input_tokens: 7,
          cache_creation_input_tokens: 2,
        },
      }),
    );
    expect(events.at(-1)).toMatchObject({
      usage: { inputTokens: 15, outputTokens: 9, cacheReadInputTokens: 7, cacheCreationInputTokens: 2 },
    });
  });

  it.each([
    ['max_tokens', null],
    ['stop_sequence', '</done>'],
    ['refusal', null],
    ['pause_turn', null],
  ])('carries stop reason %s and its stop sequence', async (stopReason, stopSequence) => {
    const events = await run(sse([], { stopReason, stopSequence }));
    expect(events.at(-1)).toMatchObject({ type: 'message_stop', stopReason, stopSequence });
  });

  it('leaves out the request id when the response has none', async () => {
    const events = await run({ kind: 'sse', events: messageEvents([]), headers: { 'request-id': '' } });
    expect(events[0]?.type).toBe('message_start');
    expect(events[0]).not.toHaveProperty('requestId');
  });

  it('drops blocks of server-side tools without disturbing the blocks around them', async () => {
    const events = await run(
      sse([
        blockStart(0, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
        blockDelta(0, { type: 'input_json_delta', partial_json: '{"query":"x"}' }),
        blockStop(0),
        blockStart(1, { type: 'text', text: '' }),
        blockDelta(1, { type: 'text_delta', text: 'ok' }),
        blockStop(1),
      ]),
    );
    expect(events.map((e) => e.type)).toEqual([
      'message_start',
      'block_start',
      'text_delta',
      'block_stop',
      'message_stop',
    ]);
    expect(events[3]).toEqual({ type: 'block_stop', index: 1, block: { type: 'text', text: 'ok' } });
  });
});
