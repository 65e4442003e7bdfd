/**
 * No model named, an OpenAI-compatible server set: its model list decides, asked over real HTTP
 * of the mock server (one model, several, none, a 404 and a refused port).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../testing/closed-port';
import { type MockServer, startMockServer } from '../testing/mock-server';
import { ModelSelectionError, selectModel } from './select';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
});
afterAll(async () => {
  await server.close();
});

const serve = (...ids: string[]) =>
  server.reset({ requireAuth: false, models: ids.map((id) => ({ id })), turns: [] });
const select = (env: Record<string, string>, model?: string) =>
  selectModel({ env: { OPENAI_BASE_URL: `${server.url}/v1`, ...env }, ...(model ? { model } : {}) });
const problem = async (env: Record<string, string> = {}) => {
  const error = await select(env).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelSelectionError);
  return (error as Error).message;
};

describe('the model of an OpenAI-compatible server nothing names', () => {
  it('is the one model the server serves, with a note naming it and how to choose', async () => {
    serve('llama3.2:latest');
    const selection = await select({});
    expect(selection.model).toBe('llama3.2:latest');
    expect(selection.servedModelNote).toBe(
      `no model named, so Yoke uses llama3.2:latest, the one model the server at ${server.url}/v1 (set by ` +
        'OPENAI_BASE_URL) serves; name one with --model <id> or OPENAI_MODEL=<id> (or the "model" setting) to choose.',
    );
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
  });

  it('stops before any request when the server serves several, listing them and how to pick', async () => {
    serve('qwen3:8b', 'llama3.2:latest', 'mistral');
    expect(await problem()).toBe(
      `No model is named, and the server at ${server.url}/v1 (set by OPENAI_BASE_URL) serves 3: qwen3:8b, ` +
        'llama3.2:latest, mistral. Choose: name one with --model <id> or OPENAI_MODEL=<id> (or the "model" ' +
        'setting), e.g. --model qwen3:8b.',
    );
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/models']);
  });

  it('keeps gpt-4.1 on a gateway that serves it among others, without a note', async () => {
    serve('gpt-4o', 'gpt-4.1', 'o3');
    const selection = await select({ OPENAI_API_KEY: 'sk-test' });
    expect(selection.model).toBe('gpt-4.1');
    expect(selection.servedModelNote).toBeUndefined();
  });

  it('stops when the server serves none, saying to pull one', async () => {
    serve();
    expect(await problem()).toMatch(
      /serves none yet: load or pull one \(Ollama: ollama pull <model>\), or name one with --model/,
    );
  });

  it('asks nothing when a model is named (flag or OPENAI_MODEL)', async () => {
    serve('a', 'b');
    expect((await select({}, 'b')).model).toBe('b');
    expect((await select({ OPENAI_MODEL: 'a' })).model).toBe('a');
    expect(server.requests).toEqual([]);
  });

  it('stops with the address and the failure when the list is missing (404)', async () => {
    serve('x');
    const base = `${server.url}/no-list/v1`;
    const error = await selectModel({ env: { OPENAI_BASE_URL: base } }).catch((e: Error) => e);
    expect((error as Error).message).toBe(
      `No model is named, and the server at ${base} (set by OPENAI_BASE_URL) does not list its models ` +
        `(GET ${base}/models: it answered 404 (mock server: no route for GET /no-list/v1/models)); name ` +
        'one with --model <id> or OPENAI_MODEL=<id> (or the "model" setting).',
    );
  });

  it('names the /v1 address to try when the root was given (Ollama answers 404 there)', async () => {
    serve('x');
    const base = `${server.url}/api`;
    const error = await selectModel({ env: { OPENAI_BASE_URL: base } }).catch((e: Error) => e);
    expect((error as Error).message).toBe(
      `The server at ${base} has no such endpoint (mock server: no route for GET /api/models). Check ` +
        `OPENAI_BASE_URL. An OpenAI-compatible base URL usually ends in /v1: try ${server.url}/v1 (Ollama ` +
        `serves its OpenAI API there, beside /api) or ${base}/v1.`,
    );
  });

  it('stops with the key line a chat request would get when the list wants a key', async () => {
    server.reset({ requireAuth: true, models: [{ id: 'x' }], turns: [] });
    expect(await problem()).toBe(
      `The server at ${server.url}/v1 wants an API key (mock server: an API key is required): set OPENAI_API_KEY.`,
    );
  });

  it('stops with the connection line when nothing listens there', async () => {
    const base = `http://127.0.0.1:${await closedPort()}/v1`;
    const error = await selectModel({ env: { OPENAI_BASE_URL: base } }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(ModelSelectionError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^Cannot reach the server at ${base.replace(/[.]/g, '\\.')} \\(set by OPENAI_BASE_URL\\): connection refused .*Is the server running, and is OPENAI_BASE_URL right\\?$`,
      ),
    );
  });
});
