import { describe, expect, it } from 'vitest';
import { collectSse } from '../sse';
import type { ScenarioInput } from './scenario';
import { serverPerTest } from './test-support';

const start = serverPerTest();

function post(url: string, body: unknown) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
    body: JSON.stringify(body),
  });
}

const request = (extra: Record<string, unknown> = {}) => ({
  model: 'gpt-test',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'List files' },
  ],
  ...extra,
});

type Chunk = {
  id: string;
  object: string;
  choices: Array<{
    index: number;
    finish_reason: string | null;
    delta: {
      role?: string;
      content?: string;
      reasoning_content?: string;
      tool_calls?: Array<{ index: number; id?: string; function: { name?: string; arguments: string } }>;
    };
  }>;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
};

const toolReply: ScenarioInput = [
  {
    reply: {
      content: [
        { type: 'thinking', thinking: 'The user wants a file listing, so run ls.' },
        { type: 'text', text: 'Listing the files and reading the readme for you.' },
        { type: 'tool_use', id: 'call_a', name: 'Bash', input: { command: 'ls -la' } },
        { type: 'tool_use', id: 'call_b', name: 'Read', input: { file_path: '/repo/README.md' } },
      ],
      usage: { inputTokens: 20, outputTokens: 30, cacheReadInputTokens: 5 },
    },
  },
];

describe('mock server: OpenAI chat completions API', () => {
  it('streams text, reasoning and tool-call deltas, a finish reason, usage and [DONE]', async () => {
    const s = await start(toolReply);
    const res = await post(
      `${s.url}/v1/chat/completions`,
      request({ stream: true, stream_options: { include_usage: true } }),
    );
    expect(res.headers.get('x-request-id')).toMatch(/^req_mock/);
    const events = await collectSse(res);
    expect(events.every((e) => e.event === undefined)).toBe(true);
    expect(events.at(-1)?.data).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data) as Chunk);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.id === chunks[0]?.id)).toBe(true);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');

    const deltas = chunks.flatMap((c) => c.choices.map((choice) => choice.delta));
    expect(deltas.map((d) => d.content ?? '').join('')).toBe(
      'Listing the files and reading the readme for you.',
    );
    expect(deltas.map((d) => d.reasoning_content ?? '').join('')).toBe(
      'The user wants a file listing, so run ls.',
    );
    expect(deltas.filter((d) => d.content).length).toBeGreaterThan(1);

    const calls = new Map<number, { id?: string; name?: string; args: string }>();
    for (const call of deltas.flatMap((d) => d.tool_calls ?? [])) {
      const entry = calls.get(call.index) ?? { args: '' };
      if (call.id) entry.id = call.id;
      if (call.function.name) entry.name = call.function.name;
      entry.args += call.function.arguments;
      calls.set(call.index, entry);
    }
    expect(calls.get(0)).toMatchObject({ id: 'call_a', name: 'Bash' });
    expect(JSON.parse(calls.get(0)!.args)).toEqual({ command: 'ls -la' });
    expect(calls.get(1)).toMatchObject({ id: 'call_b', name: 'Read' });
    expect(JSON.parse(calls.get(1)!.args)).toEqual({ file_path: '/repo/README.md' });
    expect(deltas.flatMap((d) => d.tool_calls ?? []).filter((c) => c.index === 1).length).toBeGreaterThan(2);

    const finishes = chunks.flatMap((c) => c.choices.map((choice) => choice.finish_reason)).filter(Boolean);
    expect(finishes).toEqual(['tool_calls']);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual({
      prompt_tokens: 25,
      completion_tokens: 30,
      total_tokens: 55,
      prompt_tokens_details: { cached_tokens: 5 },
    });
  });

  it('sends no usage chunk unless stream_options.include_usage is set', async () => {
    const s = await start([{ reply: { content: [{ type: 'text', text: 'Hello world' }] } }]);
    const events = await collectSse(await post(`${s.url}/chat/completions`, request({ stream: true })));
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data) as Chunk);
    expect(chunks.every((c) => c.choices.length === 1 && c.usage === undefined)).toBe(true);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('answers non-streaming requests with a chat.completion', async () => {
    const s = await start(toolReply);
    const body = (await (await post(`${s.url}/v1/chat/completions`, request())).json()) as Record<
      string,
      unknown
    >;
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-test',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Listing the files and reading the readme for you.',
            reasoning_content: 'The user wants a file listing, so run ls.',
            tool_calls: [
              {
                id: 'call_a',
                type: 'function',
                function: { name: 'Bash', arguments: '{"command":"ls -la"}' },
              },
              { id: 'call_b', type: 'function', function: { name: 'Read', arguments: expect.any(String) } },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 25, completion_tokens: 30 },
    });
  });

  it('maps a max_tokens stop to finish_reason length', async () => {
    const s = await start([
      { reply: { content: [{ type: 'text', text: 'partial' }], stopReason: 'max_tokens' } },
    ]);
    const body = (await (await post(`${s.url}/v1/chat/completions`, request())).json()) as Chunk;
    expect(body.choices[0]?.finish_reason).toBe('length');
  });

  it('rejects a request without a key with an OpenAI-shaped 401', async () => {
    const s = await start([{ reply: { content: [{ type: 'text', text: 'x' }] } }]);
    const res = await fetch(`${s.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify(request()),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      error: { code: 'invalid_api_key', message: expect.any(String) },
    });
    expect(s.requests[0]).toMatchObject({ api: 'openai', turnIndex: undefined });
  });
});
