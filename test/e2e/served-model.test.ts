/**
 * A new user who set only OPENAI_BASE_URL (Ollama's address) and named no model: the built CLI
 * asks the server's model list once, uses the one model it serves and says so once, or stops
 * before any chat request with the models to pick from.
 */
import { describe, expect, it } from 'vitest';
import { mockEnv, runYoke } from './helpers';
import { useWorkspace } from './workspace';

const ws = useWorkspace();

/** Only OPENAI_BASE_URL: no key, no model, nothing of Anthropic's. */
function ollamaUserEnv(): Record<string, string | undefined> {
  return {
    ...mockEnv(ws.server.url, ws.home),
    ANTHROPIC_API_KEY: undefined,
    ANTHROPIC_BASE_URL: undefined,
    OPENAI_MODEL: undefined,
    OPENAI_BASE_URL: `${ws.server.url}/v1`,
  };
}

const serve = (ids: string[]) =>
  ws.server.reset({
    requireAuth: false,
    models: ids.map((id) => ({ id, contextLength: 32_768 })),
    turns: [
      { match: { api: 'openai' }, reply: { content: [{ type: 'text', text: 'Hi from the local model.' }] } },
    ],
  });

const paths = () => ws.server.requests.map((r) => `${r.method} ${r.path}`);

describe('OPENAI_BASE_URL alone, no model named', () => {
  it('uses the one model the server serves, and says which once', async () => {
    serve(['llama3.2:latest']);
    const first = await runYoke(['-p', 'hi'], { cwd: ws.cwd, env: ollamaUserEnv() });
    expect(first.stdout).toBe('Hi from the local model.\n');
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(
      'yoke: warning: no model named, so Yoke uses llama3.2:latest, the one model the server at ' +
        `${ws.server.url}/v1 (set by OPENAI_BASE_URL) serves; name one with --model <id> or OPENAI_MODEL=<id> ` +
        '(or the "model" setting) to choose.\n',
    );
    const chat = ws.server.requests.find((r) => r.path === '/v1/chat/completions');
    expect(chat?.body).toMatchObject({ model: 'llama3.2:latest' });
    expect(paths()[0]).toBe('GET /v1/models');

    serve(['llama3.2:latest']);
    const again = await runYoke(['-p', 'hi'], { cwd: ws.cwd, env: ollamaUserEnv() });
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('no model named');
  });

  it('stops before any chat request when it serves several, naming them and how to pick', async () => {
    serve(['qwen3:8b', 'llama3.2:latest']);
    const { code, stdout, stderr } = await runYoke(['-p', 'hi'], { cwd: ws.cwd, env: ollamaUserEnv() });
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toBe(
      `yoke: No model is named, and the server at ${ws.server.url}/v1 (set by OPENAI_BASE_URL) serves 2: ` +
        'qwen3:8b, llama3.2:latest. Choose: name one with --model <id> or OPENAI_MODEL=<id> (or the "model" ' +
        'setting), e.g. --model qwen3:8b.\n',
    );
    expect(paths()).toEqual(['GET /v1/models']);

    serve(['qwen3:8b', 'llama3.2:latest']);
    const picked = await runYoke(['-p', 'hi', '--model', 'qwen3:8b'], { cwd: ws.cwd, env: ollamaUserEnv() });
    expect(picked.code).toBe(0);
    const chat = ws.server.requests.find((r) => r.path === '/v1/chat/completions');
    expect(chat?.body).toMatchObject({ model: 'qwen3:8b' });
  });

  it('yoke doctor reports the same line as its API check', async () => {
    serve(['qwen3:8b', 'llama3.2:latest']);
    const { code, stdout } = await runYoke(['doctor'], { cwd: ws.cwd, env: ollamaUserEnv() });
    expect(code).toBe(1);
    expect(stdout).toContain('serves 2: qwen3:8b, llama3.2:latest');
  });
});

describe('/model against the server the session talks to', () => {
  it("lists the server's own models and switches to one without a declaration; the next request uses it", async () => {
    serve(['qwen3:8b', 'llama3.2:latest']);
    const listed = await runYoke(['-p', '/model', '--model', 'qwen3:8b'], {
      cwd: ws.cwd,
      env: ollamaUserEnv(),
    });
    expect(listed.code).toBe(0);
    // The window is the default or, once the background lookup answered, the server's.
    expect(listed.stdout).toMatch(/^Model: qwen3:8b \(context window (128,000|32,768) tokens\)\n/);
    expect(listed.stdout.replace(/^.*\n/, '')).toBe(
      `Served by the server (GET ${ws.server.url}/v1/models):\n` +
        '  * qwen3:8b\n' +
        '    llama3.2:latest\n' +
        'Switch with /model <id>.\n',
    );

    serve(['qwen3:8b', 'llama3.2:latest']);
    const input = [
      JSON.stringify({ type: 'user', message: { role: 'user', content: '/model llama3.2:latest' } }),
      JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } }),
    ].join('\n');
    const switched = await runYoke(
      [
        '-p',
        '--input-format',
        'stream-json',
        '--output-format',
        'stream-json',
        '--verbose',
        '--model',
        'qwen3:8b',
      ],
      { cwd: ws.cwd, env: ollamaUserEnv(), input: `${input}\n` },
    );
    expect(switched.code).toBe(0);
    expect(switched.stdout).toContain('Model set to llama3.2:latest');
    const chat = ws.server.requests.find((r) => r.path === '/v1/chat/completions');
    expect(chat?.body).toMatchObject({ model: 'llama3.2:latest' });
  });

  it('a server without a model list: /model says so and keeps the model', async () => {
    ws.server.reset({ requireAuth: false, listModels: false, turns: [] });
    const { code, stdout } = await runYoke(['-p', '/model', '--model', 'qwen3:8b'], {
      cwd: ws.cwd,
      env: ollamaUserEnv(),
    });
    expect(code).toBe(0);
    expect(stdout).toContain(
      `The server did not list its models (GET ${ws.server.url}/v1/models: it answered 404 (mock server: no route for GET /v1/models)); the models Yoke knows:`,
    );
    expect(stdout).toContain('* qwen3:8b  (in use)');
  });
});
