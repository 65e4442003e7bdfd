import { describe, expect, it } from 'vitest';
import type { AssistantContentBlock, MessageParam } from '../types';
import { chunk, type Reply, request, run } from './scripted-fetch.fixture';
import { isOpenAIPlatform, toChatCompletionParams } from './translate-request';

const png = { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } as const;

describe('toChatCompletionParams', () => {
  it('joins system parts into one system message and streams with usage', () => {
    const params = toChatCompletionParams(
      request({ system: [{ text: 'Part one.', cacheBreakpoint: true }, { text: 'Part two.' }] }),
    );
    expect(params.messages[0]).toEqual({ role: 'system', content: 'Part one.\n\nPart two.' });
    expect(params.messages[1]).toEqual({ role: 'user', content: 'hi' });
    expect(params.stream).toBe(true);
    expect(params.stream_options).toEqual({ include_usage: true });
  });

  it('omits the system message when there is no system text', () => {
    const params = toChatCompletionParams(request({ system: [] }));
    expect(params.messages.map((m) => m.role)).toEqual(['user']);
  });

  it('maps assistant text and tool_use to one message with tool_calls, keeping ids', () => {
    const messages: MessageParam[] = [
      { role: 'user', content: 'read both' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'secret plan', signature: 'sig' },
          { type: 'redacted_thinking', data: 'xxx' },
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'toolu_A', name: 'Read', input: { path: 'a.ts' } },
          { type: 'tool_use', id: 'toolu_B', name: 'Read', input: { path: 'b.ts', limit: 5 } },
        ],
      },
    ];
    const params = toChatCompletionParams(request({ messages }));
    expect(params.messages[2]).toEqual({
      role: 'assistant',
      content: 'Reading.',
      tool_calls: [
        { id: 'toolu_A', type: 'function', function: { name: 'Read', arguments: '{"path":"a.ts"}' } },
        {
          id: 'toolu_B',
          type: 'function',
          function: { name: 'Read', arguments: '{"path":"b.ts","limit":5}' },
        },
      ],
    });
    expect(JSON.stringify(params.messages)).not.toContain('secret plan');
  });

  it('sends null content for an assistant message that only calls tools, and drops empty ones', () => {
    const messages: MessageParam[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'only thoughts', signature: 's' }] },
      { role: 'user', content: 'again' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'Glob', input: {} }] },
    ];
    const params = toChatCompletionParams(request({ messages, system: [] }));
    expect(params.messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant']);
    expect(params.messages[2]).toMatchObject({ content: null, tool_calls: [{ id: 'c1' }] });
  });

  it('turns tool results into tool messages in order, then user text, with images after the tool run', () => {
    const messages: MessageParam[] = [
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_A', content: 'contents of a' },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_B',
            content: [
              { type: 'text', text: 'a screenshot' },
              { type: 'image', source: png },
            ],
          },
          { type: 'tool_result', tool_use_id: 'toolu_C', content: 'denied', is_error: true },
          { type: 'text', text: 'Now summarise.' },
          { type: 'image', source: { type: 'url', url: 'https://example.com/x.jpg' } },
        ],
      },
    ];
    const out = toChatCompletionParams(request({ messages, system: [] })).messages;
    expect(out.map((m) => m.role)).toEqual(['tool', 'tool', 'tool', 'user', 'user']);
    expect(out[0]).toEqual({ role: 'tool', tool_call_id: 'toolu_A', content: 'contents of a' });
    expect(out[1]).toMatchObject({ role: 'tool', tool_call_id: 'toolu_B' });
    expect(out[1]?.content).toContain('a screenshot');
    expect(out[1]?.content).toContain('next user message');
    expect(out[2]).toEqual({ role: 'tool', tool_call_id: 'toolu_C', content: 'Error: denied' });
    expect(out[3]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Attachments from tool call toolu_B:' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      ],
    });
    expect(out[4]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Now summarise.' },
        { type: 'image_url', image_url: { url: 'https://example.com/x.jpg' } },
      ],
    });
  });

  it('keeps user text that precedes tool results before them', () => {
    const messages: MessageParam[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'first' },
          { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'r1' }] },
          { type: 'text', text: 'last' },
        ],
      },
    ];
    const out = toChatCompletionParams(request({ messages, system: [] })).messages;
    expect(out).toEqual([
      { role: 'user', content: 'first' },
      { role: 'tool', tool_call_id: 't1', content: 'r1' },
      { role: 'user', content: 'last' },
    ]);
  });

  it('maps tools, tool choice, stop sequences and temperature', () => {
    const tool = {
      name: 'Read',
      description: 'Reads a file',
      input_schema: { type: 'object' as const, properties: {} },
    };
    const params = toChatCompletionParams(
      request({ tools: [tool], toolChoice: { type: 'any' }, stopSequences: ['END'], temperature: 0.2 }),
    );
    expect(params.tools).toEqual([
      {
        type: 'function',
        function: { name: 'Read', description: 'Reads a file', parameters: tool.input_schema },
      },
    ]);
    expect(params.tool_choice).toBe('required');
    expect(params.stop).toEqual(['END']);
    expect(params.temperature).toBe(0.2);
    const named = toChatCompletionParams(
      request({ tools: [tool], toolChoice: { type: 'tool', name: 'Read' } }),
    );
    expect(named.tool_choice).toEqual({ type: 'function', function: { name: 'Read' } });
    expect(toChatCompletionParams(request({ tools: [tool], toolChoice: { type: 'none' } })).tool_choice).toBe(
      'none',
    );
    const noTools = toChatCompletionParams(request({ toolChoice: { type: 'any' } }));
    expect(noTools.tools).toBeUndefined();
    expect(noTools.tool_choice).toBeUndefined();
    expect(noTools.stop).toBeUndefined();
    expect(noTools.temperature).toBeUndefined();
  });

  it('sends a loaded deferred tool as an ordinary function and its reference as text', () => {
    const loaded = {
      name: 'mcp__gh__create_issue',
      description: 'Opens an issue',
      input_schema: { type: 'object' as const, properties: {} },
      deferLoading: true as const,
    };
    const params = toChatCompletionParams(
      request({
        tools: [loaded],
        messages: [
          { role: 'user', content: 'open an issue' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'ToolSearch', input: {} }] },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 'c1',
                content: [{ type: 'tool_reference', tool_name: 'mcp__gh__create_issue' }],
              },
            ],
          },
        ],
      }),
    );
    expect(params.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'mcp__gh__create_issue',
          description: 'Opens an issue',
          parameters: loaded.input_schema,
        },
      },
    ]);
    expect(params.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'Loaded mcp__gh__create_issue: its schema is now in your tool list.',
    });
  });

  it('uses max_completion_tokens for OpenAI and max_tokens for other servers', () => {
    const openai = toChatCompletionParams(request({ maxTokens: 321 }));
    expect(openai.max_completion_tokens).toBe(321);
    expect(openai.max_tokens).toBeUndefined();
    const local = toChatCompletionParams(request({ maxTokens: 321 }), {
      baseURL: 'http://localhost:11434/v1',
    });
    expect(local.max_tokens).toBe(321);
    expect(local.max_completion_tokens).toBeUndefined();
    expect(isOpenAIPlatform('https://api.openai.com/v1/')).toBe(true);
    expect(isOpenAIPlatform('not a url')).toBe(false);
  });
});

describe('request body on the wire', () => {
  const finished: Reply = { kind: 'sse', chunks: [chunk({ content: 'ok', finish_reason: 'stop' })] };

  it('posts max_completion_tokens to api.openai.com with the bearer key', async () => {
    const { requests, error } = await run(finished);
    expect(error).toBeUndefined();
    expect(requests[0]?.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(requests[0]?.body.max_completion_tokens).toBe(1000);
    expect(requests[0]?.body).not.toHaveProperty('max_tokens');
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer sk-test');
  });

  it('posts max_tokens to a local server and sends no Authorization header without a key', async () => {
    const { requests, error } = await run(finished, {
      provider: {
        apiKey: undefined,
        baseURL: 'http://127.0.0.1:8080/v1',
        defaultHeaders: { 'x-team': 'yoke' },
      },
    });
    expect(error).toBeUndefined();
    expect(requests[0]?.url).toBe('http://127.0.0.1:8080/v1/chat/completions');
    expect(requests[0]?.body.max_tokens).toBe(1000);
    expect(requests[0]?.body).not.toHaveProperty('max_completion_tokens');
    expect(requests[0]?.headers.get('authorization')).toBeNull();
    expect(requests[0]?.headers.get('x-team')).toBe('yoke');
  });
});

describe('tool-call id round trip', () => {
  it('streams tool calls whose ids come back unchanged in the next request', async () => {
    const first = await run({
      kind: 'sse',
      chunks: [
        chunk({
          tool_calls: [
            { index: 0, id: 'call_xyz', type: 'function', function: { name: 'Bash', arguments: '' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"command":"ls"}' } }] }),
        chunk({ finish_reason: 'tool_calls' }),
      ],
    });
    const blocks = first.events.flatMap((e) =>
      e.type === 'block_stop' ? [e.block] : [],
    ) as AssistantContentBlock[];
    expect(blocks).toEqual([{ type: 'tool_use', id: 'call_xyz', name: 'Bash', input: { command: 'ls' } }]);

    const messages: MessageParam[] = [
      { role: 'user', content: 'list' },
      { role: 'assistant', content: blocks },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_xyz', content: 'a\nb' }] },
    ];
    const second = await run(
      { kind: 'sse', chunks: [chunk({ content: 'done', finish_reason: 'stop' })] },
      { request: request({ messages }) },
    );
    const sent = second.requests[0]?.body.messages as Array<Record<string, unknown>>;
    expect(sent[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_xyz', type: 'function', function: { name: 'Bash', arguments: '{"command":"ls"}' } },
      ],
    });
    expect(sent[3]).toEqual({ role: 'tool', tool_call_id: 'call_xyz', content: 'a\nb' });
  });
});
