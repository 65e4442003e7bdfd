/** The context-length lookup against the mock server's model list and Ollama routes, over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../testing/mock-server';
import type { Endpoint } from '../endpoint';
import { createTransport } from '../http/transport';
import { fetchContextLength } from './context-length';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
});
afterAll(async () => {
  await server.close();
});

const fetch = createTransport({ connectMs: 5_000, firstByteMs: 5_000, idleMs: 5_000 });
const endpoint = (): Endpoint => ({ api: 'openai', baseUrl: `${server.url}/v1`, keyVariables: [] });
const lookup = (model: string) =>
  fetchContextLength(model, new AbortController().signal, { endpoint: endpoint(), fetch });

describe('fetchContextLength', () => {
  it("takes vLLM's max_model_len from the model list", async () => {
    server.reset({ requireAuth: false, models: [{ id: 'Qwen/Qwen3-8B', maxModelLen: 32_768 }], turns: [] });
    expect(await lookup('Qwen/Qwen3-8B')).toBe(32_768);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
  });

  it("falls back to Ollama's model details at the server root", async () => {
    server.reset({ requireAuth: false, models: [{ id: 'qwen3:8b', contextLength: 40_960 }], turns: [] });
    expect(await lookup('qwen3:8b')).toBe(40_960);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models', 'POST /api/show']);
    expect(server.requests[1]?.body).toEqual({ model: 'qwen3:8b' });
  });

  it('says nothing when the server does not know the figure', async () => {
    server.reset({ requireAuth: false, models: [{ id: 'plain' }], turns: [] });
    expect(await lookup('plain')).toBeUndefined();
    expect(await lookup('missing')).toBeUndefined();
  });

  it('sends the key when there is one', async () => {
    server.reset({ requireAuth: true, models: [{ id: 'm', maxModelLen: 8_192 }], turns: [] });
    expect(await lookup('m')).toBeUndefined();
    const withKey = await fetchContextLength('m', new AbortController().signal, {
      endpoint: endpoint(),
      fetch,
      apiKey: 'sk-local',
    });
    expect(withKey).toBe(8_192);
  });

  it("prefers the num_ctx an Ollama model file sets over the model's trained length", async () => {
    const fake = async (input: string | URL | Request) =>
      String(input).endsWith('/api/show')
        ? Response.json({
            parameters: 'stop "<|im_end|>"\nnum_ctx 16384',
            model_info: { 'qwen3.context_length': 40_960 },
          })
        : Response.json({ object: 'list', data: [{ id: 'qwen3:8b' }] });
    const length = await fetchContextLength('qwen3:8b', new AbortController().signal, {
      endpoint: { api: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', keyVariables: [] },
      fetch: fake,
    });
    expect(length).toBe(16_384);
  });
});
