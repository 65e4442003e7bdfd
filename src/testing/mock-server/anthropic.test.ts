import { describe, expect, it } from 'vitest';
import { collectSse } from '../sse';
import { serverPerTest } from './test-support';

const start = serverPerTest();

function post(
  base: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = { 'x-api-key': 'k' },
) {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

const request = (extra: Record<string, unknown> = {}) => ({
  model: 'claude-test',
  max_tokens: 100,
  messages: [{ role: 'user', content: 'Hello there' }],
  ...extra,
});

type Data = Record<string, unknown> & { type: string };

describe('mock server: Anthropic Messages API', () => {
  it('streams every event type in order, and the deltas rebuild the scripted content', async () => {
    const s = await start([
      {
        reply: {
          content: [
            { type: 'thinking', thinking: 'Let me think about this carefully first.', signature: 'sig-1' },
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'text', text: 'I will list the files in the current directory now.' },
            {
              type: 'tool_use',
              id: 'toolu_1',
              name: 'Bash',
              input: { command: 'ls -la', nested: { a: [1, 2] } },
            },
          ],
        },
      },
    ]);
    const res = await post(s.url, '/v1/messages', request({ stream: true }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('request-id')).toMatch(/^req_mock/);
    const events = await collectSse(res);
    const data = events.map((e) => JSON.parse(e.data) as Data);
    // The SSE event name always equals the data's type.
    expect(events.map((e) => e.event)).toEqual(data.map((d) => d.type));

    const names = data.map((d) => d.type);
    expect(names.slice(0, 2)).toEqual(['message_start', 'ping']);
    expect(names.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(data[0]).toMatchObject({
      message: { role: 'assistant', model: 'claude-test', content: [], stop_reason: null },
    });

    const rebuilt: Record<
      number,
      { start: Data; text: string; thinking: string; json: string; sig: string }
    > = {};
    for (const d of data) {
      const index = d.index as number;
      if (d.type === 'content_block_start') {
        rebuilt[index] = { start: d.content_block as Data, text: '', thinking: '', json: '', sig: '' };
      }
      if (d.type === 'content_block_delta') {
        const delta = d.delta as Record<string, string>;
        const block = rebuilt[index]!;
        if (delta.type === 'text_delta') block.text += delta.text;
        if (delta.type === 'thinking_delta') block.thinking += delta.thinking;
        if (delta.type === 'signature_delta') block.sig += delta.signature;
        if (delta.type === 'input_json_delta') block.json += delta.partial_json;
      }
    }
    expect(rebuilt[0]).toMatchObject({ thinking: 'Let me think about this carefully first.', sig: 'sig-1' });
    expect(rebuilt[1]?.start).toEqual({ type: 'redacted_thinking', data: 'opaque' });
    expect(rebuilt[2]?.text).toBe('I will list the files in the current directory now.');
    expect(rebuilt[3]?.start).toMatchObject({ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {} });
    expect(JSON.parse(rebuilt[3]!.json)).toEqual({ command: 'ls -la', nested: { a: [1, 2] } });

    const deltasOf = (index: number, type: string) =>
      data.filter((d) => d.index === index && (d.delta as Data | undefined)?.type === type).length;
    expect(deltasOf(2, 'text_delta')).toBeGreaterThan(1);
    expect(deltasOf(0, 'thinking_delta')).toBeGreaterThan(1);
    expect(deltasOf(3, 'input_json_delta')).toBeGreaterThan(2);

    const messageDelta = data.at(-2)!;
    expect(messageDelta.delta).toEqual({ stop_reason: 'tool_use', stop_sequence: null });
    expect((messageDelta.usage as Record<string, number>).output_tokens).toBeGreaterThan(0);
  });

  it('answers non-streaming requests with one JSON message', async () => {
    const s = await start([
      { reply: { content: [{ type: 'text', text: 'Hi!' }], usage: { outputTokens: 7 } } },
    ]);
    const res = await post(s.url, '/v1/messages', request());
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [{ type: 'text', text: 'Hi!' }],
      stop_reason: 'end_turn',
      usage: { output_tokens: 7, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    });
    expect((body.usage as Record<string, number>).input_tokens).toBeGreaterThan(0);
    expect(body.id).toMatch(/^msg_mock/);
  });

  it('fills in tool_use ids and thinking signatures the script leaves out', async () => {
    const s = await start([
      {
        reply: {
          content: [
            { type: 'thinking', thinking: 'hmm' },
            { type: 'tool_use', name: 'Read', input: { file_path: '/a' } },
          ],
        },
      },
    ]);
    const body = (await (await post(s.url, '/v1/messages', request())).json()) as {
      content: Array<Record<string, string>>;
      stop_reason: string;
    };
    expect(body.content[0]?.signature).toMatch(/\S/);
    expect(body.content[1]?.id).toMatch(/^toolu_mock_/);
    expect(body.stop_reason).toBe('tool_use');
  });

  it('returns a max_tokens stop when scripted', async () => {
    const s = await start([
      { reply: { content: [{ type: 'text', text: 'cut' }], stopReason: 'max_tokens' } },
    ]);
    const events = await collectSse(await post(s.url, '/v1/messages', request({ stream: true })));
    expect(JSON.parse(events.at(-2)!.data).delta.stop_reason).toBe('max_tokens');
  });

  it('estimates count_tokens as a quarter of the request size without consuming a turn', async () => {
    const s = await start([{ reply: { content: [{ type: 'text', text: 'x' }] } }]);
    const body = request({ messages: [{ role: 'user', content: 'a'.repeat(400) }] });
    const res = await post(s.url, '/v1/messages/count_tokens', body);
    const { input_tokens } = (await res.json()) as { input_tokens: number };
    expect(input_tokens).toBe(Math.ceil(JSON.stringify(body).length / 4));
    expect(s.requests[0]).toMatchObject({ path: '/v1/messages/count_tokens', turnIndex: undefined });
    expect((await post(s.url, '/v1/messages', request())).status).toBe(200);
  });

  it('rejects a request without credentials with an Anthropic-shaped 401', async () => {
    const s = await start([{ reply: { content: [{ type: 'text', text: 'x' }] } }]);
    const res = await post(s.url, '/v1/messages', request(), {});
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message: expect.any(String) },
    });
    const bearer = await post(s.url, '/v1/messages', request(), { authorization: 'Bearer sk-test' });
    expect(bearer.status).toBe(200);
  });

  it('skips the auth check when the scenario says so', async () => {
    const s = await start({
      requireAuth: false,
      turns: [{ reply: { content: [{ type: 'text', text: 'x' }] } }],
    });
    expect((await post(s.url, '/v1/messages', request(), {})).status).toBe(200);
  });

  it('answers 400 to a body that is not a messages request, and 404 to unknown routes', async () => {
    const s = await start([{ reply: { content: [{ type: 'text', text: 'x' }] } }]);
    const bad = await post(s.url, '/v1/messages', { hello: 1 });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
    expect((await post(s.url, '/v1/models', request())).status).toBe(404);
  });

  it('records every request with its body, headers, api and turn', async () => {
    const s = await start([{ reply: { content: [{ type: 'text', text: 'x' }] } }]);
    const before = Date.now();
    await post(s.url, '/v1/messages?beta=true', request(), {
      'x-api-key': 'secret',
      'anthropic-version': '2023-06-01',
    });
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/messages',
      api: 'anthropic',
      turnIndex: 0,
      body: request(),
      headers: { 'x-api-key': 'secret', 'anthropic-version': '2023-06-01' },
    });
    expect(s.requests[0]!.receivedAt).toBeGreaterThanOrEqual(before);
  });
});
