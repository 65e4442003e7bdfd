import { describe, expect, it, vi } from 'vitest';
import { parsePromptTooLong } from '../../model/errors';
import { readSse, type SseEvent } from '../sse';
import type { MockServer } from './server';
import { serverPerTest } from './test-support';

const start = serverPerTest();

const anthropic = (s: MockServer, stream = false) =>
  fetch(`${s.url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': 'k' },
    body: JSON.stringify({ model: 'm', max_tokens: 10, stream, messages: [{ role: 'user', content: 'hi' }] }),
  });

const openai = (s: MockServer, stream = false) =>
  fetch(`${s.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer k' },
    body: JSON.stringify({ model: 'm', stream, messages: [{ role: 'user', content: 'hi' }] }),
  });

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

/** Reads events until the stream ends or fails; returns both. */
async function drain(res: Response): Promise<{ events: SseEvent[]; error: unknown }> {
  const events: SseEvent[] = [];
  try {
    for await (const event of readSse(res)) events.push(event);
    return { events, error: undefined };
  } catch (error) {
    return { events, error };
  }
}

describe('mock server: faults', () => {
  it('sends a 429 with retry-after, then the next turn answers', async () => {
    const s = await start([{ fault: { type: 'http', status: 429, retryAfter: 3 } }, { reply: text('ok') }]);
    const res = await anthropic(s);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(res.headers.get('request-id')).toMatch(/^req_mock/);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect((await anthropic(s)).status).toBe(200);
  });

  it('accepts a bare status code as an http fault and repeats it', async () => {
    const s = await start([{ fault: 500, repeat: 2 }, { reply: text('ok') }]);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await openai(s)).status);
    expect(statuses).toEqual([500, 500, 200]);
  });

  it('sends 529 overloaded_error for both APIs', async () => {
    const s = await start([{ fault: { type: 'overloaded' }, repeat: 2 }]);
    const a = await anthropic(s);
    expect(a.status).toBe(529);
    expect(await a.json()).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
    const o = await openai(s);
    expect(o.status).toBe(529);
    expect(await o.json()).toMatchObject({ error: { code: 'overloaded_error' } });
  });

  it('sends prompt-too-long errors whose counts the model layer can parse', async () => {
    const fault = { type: 'prompt_too_long' as const, actualTokens: 210000, limitTokens: 200000 };
    const s = await start([{ fault }, { fault: { ...fault, status: 413 as const } }, { fault }]);
    const a = await anthropic(s);
    expect(a.status).toBe(400);
    const aBody = (await a.json()) as { error: { type: string; message: string } };
    expect(aBody.error).toEqual({
      type: 'invalid_request_error',
      message: 'prompt is too long: 210000 tokens > 200000 maximum',
    });
    expect(parsePromptTooLong(aBody.error.message)).toEqual({ actual: 210000, limit: 200000 });

    const big = await anthropic(s);
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { type: string } }).error.type).toBe('request_too_large');

    const o = await openai(s);
    expect(o.status).toBe(400);
    const oBody = (await o.json()) as { error: { code: string; message: string } };
    expect(oBody.error.code).toBe('context_length_exceeded');
    expect(parsePromptTooLong(oBody.error.message)).toEqual({ actual: 210000, limit: 200000 });
  });

  it('destroys the socket after exactly N SSE events', async () => {
    const long = text('one two three four five six seven eight nine ten eleven twelve');
    const s = await start([
      { reply: long, fault: { type: 'disconnect', afterEvents: 3 } },
      { reply: long, fault: { type: 'disconnect', afterEvents: 2 } },
    ]);
    const a = await drain(await anthropic(s, true));
    expect(a.events.map((e) => e.event)).toEqual(['message_start', 'ping', 'content_block_start']);
    expect(a.error).toBeInstanceOf(Error);
    const o = await drain(await openai(s, true));
    expect(o.events).toHaveLength(2);
    expect(o.error).toBeInstanceOf(Error);
  });

  it('drops a non-streaming request with a disconnect fault without answering', async () => {
    const s = await start([{ fault: { type: 'disconnect', afterEvents: 0 } }]);
    await expect(anthropic(s)).rejects.toMatchObject({
      message: 'fetch failed',
      cause: { message: 'other side closed' },
    });
  });

  it('sends an in-stream error event after message_start', async () => {
    const s = await start([
      { reply: text('never finished'), fault: { type: 'stream_error', errorType: 'overloaded_error' } },
      { fault: { type: 'stream_error', errorType: 'api_error', message: 'boom' } },
      { fault: { type: 'stream_error' } },
    ]);
    const a = await drain(await anthropic(s, true));
    expect(a.error).toBeUndefined();
    expect(a.events.map((e) => e.event)).toEqual(['message_start', 'error']);
    expect(JSON.parse(a.events[1]!.data)).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
    const o = await drain(await openai(s, true));
    expect(JSON.parse(o.events.at(-1)!.data)).toMatchObject({
      error: { message: 'boom', code: 'api_error' },
    });
    // Without streaming the same fault is the equivalent HTTP error.
    expect((await anthropic(s)).status).toBe(529);
  });

  it('slows a stream down by chunkDelayMs per event', async () => {
    const s = await start([{ reply: text('a b c d e f'), chunkDelayMs: 20 }]);
    const started = Date.now();
    const slow = await drain(await anthropic(s, true));
    const elapsed = Date.now() - started;
    expect(slow.events.length).toBeGreaterThan(5);
    // Loose bound: each event waited ~20 ms; timers may fire a little early, never much.
    expect(elapsed).toBeGreaterThanOrEqual(slow.events.length * 15);
  });

  it('close() ends a stream that is still waiting between events', async () => {
    const s = await start([{ reply: text('never sent'), chunkDelayMs: 60_000 }]);
    const res = await anthropic(s, true);
    const reading = drain(res);
    await s.close();
    const { events, error } = await reading;
    expect(events).toEqual([]);
    expect(error).toBeInstanceOf(Error);
  });

  it('answers 500 with a readable message when the scenario has no turn left', async () => {
    const s = await start([{ reply: text('only once') }]);
    await anthropic(s);
    const res = await anthropic(s);
    expect(res.status).toBe(500);
    expect(res.headers.get('x-should-retry')).toBe('false');
    const body = (await res.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('api_error');
    expect(body.error.message).toMatch(/no turn for this request.*request #2.*"hi".*all 1 turns are used up/);
    expect(s.requests[1]?.turnIndex).toBeUndefined();
  });

  it('silent: accepts the request and sends nothing, not even headers', async () => {
    const s = await start([{ fault: { type: 'silent' } }]);
    const pending = anthropic(s, true);
    await vi.waitFor(() => expect(s.requests).toHaveLength(1));
    // fetch resolves at the headers; it can only fail here if none were ever sent.
    await s.close();
    await expect(pending).rejects.toMatchObject({
      message: 'fetch failed',
      cause: { message: 'other side closed' },
    });
  });

  it('stall: sends N events, then nothing while the connection stays open', async () => {
    const s = await start([
      { reply: text('one two three four five six'), fault: { type: 'stall', afterEvents: 2 } },
    ]);
    const res = await openai(s, true);
    expect(res.status).toBe(200);
    const reading = drain(res);
    await vi.waitFor(() => expect(s.requests).toHaveLength(1));
    await s.close();
    const { events, error } = await reading;
    expect(events).toHaveLength(2);
    expect(error).toBeInstanceOf(Error);
  });

  it('html_page: answers a web page with status 200 where the API should be', async () => {
    const s = await start([{ fault: { type: 'html_page', title: 'Proxy login' } }]);
    const res = await anthropic(s, true);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toContain('<title>Proxy login</title>');
  });

  it("unknown_model: each API's own 404 naming the requested model", async () => {
    const s = await start([{ fault: { type: 'unknown_model' }, repeat: 2 }]);
    const a = await anthropic(s);
    expect(a.status).toBe(404);
    expect(await a.json()).toEqual({
      type: 'error',
      error: { type: 'not_found_error', message: 'model: m' },
    });
    const o = await openai(s);
    expect(o.status).toBe(404);
    expect(await o.json()).toMatchObject({
      error: {
        code: 'model_not_found',
        message: 'The model `m` does not exist or you do not have access to it.',
      },
    });
  });
});

describe('mock server: model information routes', () => {
  it("lists the scenario's models with vLLM's max_model_len, and Ollama's context_length", async () => {
    const s = await start({
      requireAuth: false,
      models: [{ id: 'qwen-local', maxModelLen: 32768, contextLength: 40960 }, { id: 'plain' }],
      turns: [],
    });
    const list = await fetch(`${s.url}/v1/models`);
    expect(await list.json()).toEqual({
      object: 'list',
      data: [
        { id: 'qwen-local', object: 'model', created: 0, owned_by: 'mock', max_model_len: 32768 },
        { id: 'plain', object: 'model', created: 0, owned_by: 'mock' },
      ],
    });
    const show = await fetch(`${s.url}/api/show`, {
      method: 'POST',
      body: JSON.stringify({ model: 'qwen-local' }),
    });
    expect(await show.json()).toMatchObject({ model_info: { 'llama.context_length': 40960 } });
    const missing = await fetch(`${s.url}/api/show`, {
      method: 'POST',
      body: JSON.stringify({ model: 'nope' }),
    });
    expect(missing.status).toBe(404);
    expect(s.requests.map((r) => [r.method, r.path, r.turnIndex])).toEqual([
      ['GET', '/v1/models', undefined],
      ['POST', '/api/show', undefined],
      ['POST', '/api/show', undefined],
    ]);
  });

  it('listModels: false answers the model list with 404, as a server without the route', async () => {
    const s = await start({
      requireAuth: false,
      listModels: false,
      models: [{ id: 'qwen-local' }],
      turns: [],
    });
    const list = await fetch(`${s.url}/v1/models`);
    expect(list.status).toBe(404);
    expect(await list.json()).toMatchObject({
      error: { message: 'mock server: no route for GET /v1/models' },
    });
    const show = await fetch(`${s.url}/api/show`, {
      method: 'POST',
      body: JSON.stringify({ model: 'qwen-local' }),
    });
    expect(show.status).toBe(200);
  });

  it('media_error: the 400 each API sends for an image, naming where the first image is', async () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'QUJDRA==' } };
    const withImage = {
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'look' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [image] }] },
      ],
    };
    const s = await start([
      { match: { hasImage: true }, fault: { type: 'media_error' } },
      { match: { hasImage: true }, fault: { type: 'media_error', problem: 'unreadable' } },
      { match: { hasImage: false }, reply: text('no image here') },
    ]);
    const post = (body: unknown) =>
      fetch(`${s.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': 'k' },
        body: JSON.stringify(body),
      });
    const tooLarge = await post(withImage);
    expect(tooLarge.status).toBe(400);
    expect(await tooLarge.json()).toMatchObject({
      error: {
        type: 'invalid_request_error',
        message:
          'messages.2.content.0.content.0.image.source.base64: image exceeds 5 MB maximum: 4 bytes > 5242880 bytes',
      },
    });
    const unreadable = await post(withImage);
    expect(await unreadable.json()).toMatchObject({ error: { message: 'Could not process image' } });
    // A request without an image does not match the image turns.
    expect((await anthropic(s)).status).toBe(200);
  });

  it('media_error on the OpenAI wire carries its image error code', async () => {
    const s = await start([{ fault: { type: 'media_error' } }]);
    const res = await fetch(`${s.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer k' },
      body: JSON.stringify({
        model: 'm',
        messages: [
          {
            role: 'user',
            content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,QUJDRA==' } }],
          },
        ],
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: {
        code: 'invalid_image',
        message: 'Invalid image at messages.0.content.0.image_url: the image is too large (4 bytes).',
      },
    });
  });
});
