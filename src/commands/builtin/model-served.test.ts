/**
 * /model on an OpenAI-compatible server: the server's own list (GET /v1/models) over real HTTP,
 * from the mock server, through the session's real model selection.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { servedModelsOf } from '../../cli/headless-command-host';
import { selectModel } from '../../model/select';
import { closedPort } from '../../testing/closed-port';
import { type MockServer, startMockServer } from '../../testing/mock-server';
import type { ScenarioInput } from '../../testing/mock-server/scenario';
import { commandText, createTestHost, type TestHost, writeJson } from '../test-host';

let host: TestHost;
let server: MockServer | undefined;
beforeEach(async () => {
  host = await createTestHost();
  host.provider = 'openai';
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await host.cleanup();
});

/** Points the host at an OpenAI-compatible server at `baseUrl`, as a session with OPENAI_BASE_URL. */
async function useServer(baseUrl: string, model: string): Promise<void> {
  const selection = await selectModel({ env: { OPENAI_BASE_URL: baseUrl }, model, provider: 'openai' });
  Object.assign(host, servedModelsOf(selection));
  host.setModel(selection.model);
}

async function serve(scenario: Partial<Exclude<ScenarioInput, unknown[]>>, model: string): Promise<string> {
  server = await startMockServer({ scenario: { requireAuth: false, ...scenario, turns: [] } });
  const baseUrl = `${server.url}/v1`;
  await useServer(baseUrl, model);
  return baseUrl;
}

const textOf = (line: string) => commandText(host, line);

describe('/model on an OpenAI-compatible server', () => {
  it("lists the server's own models, the one in use starred, and says where the list came from", async () => {
    const base = await serve(
      { models: [{ id: 'qwen2.5-coder:7b' }, { id: 'llama3.2:3b' }, { id: 'gpt-4.1' }] },
      'qwen2.5-coder:7b',
    );
    const text = await textOf('/model');
    expect(text.split('\n')).toEqual([
      'Model: qwen2.5-coder:7b (context window 128,000 tokens)',
      `Served by the server (GET ${base}/models):`,
      '  * qwen2.5-coder:7b',
      '    llama3.2:3b',
      '    gpt-4.1  $2/$8 per Mtok',
      'Switch with /model <id>.',
    ]);
    expect(server?.requests.filter((r) => r.path === '/v1/models')).toHaveLength(1);
  });

  it('switches to a model the server serves without a declaration, and refuses one it does not', async () => {
    await serve({ models: [{ id: 'qwen2.5-coder:7b' }, { id: 'llama3.2:3b' }] }, 'qwen2.5-coder:7b');
    expect(await textOf('/model llama3.2:3b')).toBe(
      'Model set to llama3.2:3b (context window 128,000 tokens) for the next turns.',
    );
    expect(host.model()).toBe('llama3.2:3b');
    const refused = await textOf('/model llama3.2:1b');
    expect(refused).toMatch(
      /^The server \(GET http:\/\/127\.0\.0\.1:\d+\/v1\/models\) does not serve "llama3\.2:1b"\. Did you mean llama3\.2:3b\?/,
    );
    expect(refused).toContain('It serves qwen2.5-coder:7b, llama3.2:3b.');
    expect(host.model()).toBe('llama3.2:3b');
  });

  it('takes an Ollama name without its tag for the :latest the server lists', async () => {
    await serve({ models: [{ id: 'qwen3:8b' }, { id: 'llama3.2:latest' }] }, 'qwen3:8b');
    expect(await textOf('/model llama3.2')).toMatch(/^Model set to llama3\.2:latest \(/);
    expect(host.model()).toBe('llama3.2:latest');
    expect(await textOf('/model qwen3')).toMatch(/does not serve "qwen3"\. Did you mean qwen3:8b\?/);
  });

  it('shows declared models the server does not list, and a server with none says how to get one', async () => {
    await writeJson(join(host.cwd, '.yoke', 'settings.json'), {
      models: { 'qwen3-coder:30b': { contextWindow: 65536 } },
    });
    await serve({ models: [{ id: 'llama3.2:3b' }] }, 'llama3.2:3b');
    expect(await textOf('/model')).toContain(
      '    qwen3-coder:30b  (declared in settings; the server does not list it)',
    );
    await server?.close();
    await serve({ models: [] }, 'llama3.2:3b');
    expect(await textOf('/model')).toMatch(
      /lists no models: load or pull one \(Ollama: ollama pull <model>\)\./,
    );
    expect(await textOf('/model mistral')).toMatch(
      /lists no models, so it cannot serve "mistral": load or pull it first \(Ollama: ollama pull mistral\)\.$/,
    );
  });

  it('says why when the server has no list, and falls back to the models Yoke knows', async () => {
    const base = await serve({ listModels: false, models: [] }, 'qwen-local');
    const text = await textOf('/model');
    expect(text).toContain(
      `The server did not list its models (GET ${base}/models: it answered 404 (mock server: no route for GET /v1/models)); the models Yoke knows:`,
    );
    expect(text).toContain('Available on the OpenAI-compatible API:');
    expect(text).toContain('* qwen-local  (in use)');
    const refused = await textOf('/model mistral');
    expect(refused).toMatch(/^Unknown model "mistral": Yoke has no figures for it\./);
    expect(refused).toContain("(The server's list: GET");
  });

  it('a server that is down: the list names the address and asks whether it runs; nothing changes', async () => {
    const base = `http://127.0.0.1:${await closedPort()}/v1`;
    await useServer(base, 'qwen-local');
    const text = await textOf('/model');
    expect(text).toMatch(/^Model: qwen-local /);
    expect(text).toMatch(
      /The server did not list its models \(.*OPENAI_BASE_URL.*\); the models Yoke knows:/s,
    );
    expect(text).toContain(base.replace('/v1', ''));
    expect(await textOf('/model mistral')).toMatch(/^Unknown model "mistral"/);
    expect(host.model()).toBe('qwen-local');
  });

  it("OpenAI's own API (no base URL) keeps Yoke's table: its list mixes in image and speech models", async () => {
    const selection = await selectModel({ env: { OPENAI_API_KEY: 'sk-test' }, model: 'gpt-4.1' });
    expect(selection.listModels).toBeDefined();
    expect(servedModelsOf(selection)).toEqual({});
  });

  it('on Anthropic no server list is asked for', async () => {
    host.provider = 'anthropic';
    host.setModel('claude-sonnet-5-5');
    expect(await textOf('/model')).toContain('Available on the Anthropic API:');
  });
});
