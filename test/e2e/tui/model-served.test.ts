/**
 * A local OpenAI-compatible server in the REPL (tmux, the mock model server as Ollama would
 * answer): /model shows the server's own list (GET /v1/models), a model it serves is switched to
 * without any declaration in settings, and the next turn's request carries it; a server that has
 * not answered yet (loading a model) is named in the spinner, and Esc still ends the wait.
 */
import { describe, expect, it } from 'vitest';
import { READY, useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const fx = useTuiFixture('yoke-model-served-');

/** Only OPENAI_BASE_URL, as a local user sets it: no key, nothing of Anthropic's. */
const ollamaEnv = () => ({
  ...fx.env(),
  ANTHROPIC_API_KEY: undefined,
  ANTHROPIC_BASE_URL: undefined,
  OPENAI_BASE_URL: `${fx.server.url}/v1`,
});

describe.skipIf(!hasTmux)('/model on an OpenAI-compatible server, in the REPL', { timeout: 120_000 }, () => {
  it("lists the server's models and switches to one it serves; the next request uses it", async () => {
    fx.server.reset({
      requireAuth: false,
      models: [{ id: 'qwen3:8b' }, { id: 'llama3.2:latest' }],
      turns: [{ reply: { content: [{ type: 'text', text: 'answered-by-the-switched-model' }] } }],
    });
    const t = await fx.open(['--model', 'qwen3:8b'], { env: ollamaEnv() });
    await t.waitFor(READY, { timeoutMs: 45_000 });
    await t.type('/model');
    await t.press('Enter');
    const listed = await t.waitFor('Switch with /model <id>.');
    expect(listed).toContain(`Served by the server (GET ${fx.server.url}/v1/models):`);
    expect(listed).toMatch(/\* qwen3:8b\n\s+llama3\.2:latest\n/);

    await t.type('/model llama3.2:latest');
    await t.press('Enter');
    await t.waitFor(
      (s) => s.includes('Model set to llama3.2:latest') && /llama3\.2:latest · default mode/.test(s),
    );
    await t.type('hello there');
    await t.press('Enter');
    await t.waitFor('answered-by-the-switched-model');
    const chat = fx.server.requests.find((r) => r.path === '/v1/chat/completions');
    expect(chat?.body).toMatchObject({ model: 'llama3.2:latest' });
  });
});

describe.skipIf(!hasTmux)('a server that has not answered yet, in the REPL', { timeout: 120_000 }, () => {
  it('the spinner says so after a few seconds; Esc ends the wait and the prompt stays', async () => {
    fx.server.reset({
      requireAuth: false,
      models: [{ id: 'qwen3:8b' }],
      turns: [{ fault: { type: 'silent' } }],
    });
    const t = await fx.open(['--model', 'qwen3:8b'], { env: ollamaEnv() });
    await t.waitFor(READY, { timeoutMs: 45_000 });
    await t.type('explain the build');
    await t.press('Enter');
    const waiting = await t.waitFor(
      /Working… \(.*no answer from the model server for \d+s · esc to interrupt\)/,
      {
        timeoutMs: 30_000,
      },
    );
    expect(waiting).toContain('> explain the build');
    await t.press('Escape');
    const after = await t.waitFor((s) => !s.includes('Working…') && READY(s));
    expect(after).toContain('> explain the build');
  });
});
