/** The /doctor reachability probe against the mock server over real HTTP, and against a closed port. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../model/anthropic/provider';
import { withRetry } from '../model/retry';
import { closedPort } from '../testing/closed-port';
import { type MockServer, startMockServer } from '../testing/mock-server';
import { probeProvider } from './provider-probe';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ scenario: [{ reply: { content: [{ type: 'text', text: 'pong' }] } }] });
});
afterAll(() => server.close());

const signal = new AbortController().signal;

describe('probeProvider', () => {
  it('reports the provider reachable with a key, sending a one-token request', async () => {
    const provider = new AnthropicProvider({ apiKey: 'sk-probe', baseURL: server.url });
    const probe = await probeProvider({ provider, model: 'claude-haiku-5-5', signal });
    expect(probe).toMatchObject({ ok: true, provider: 'anthropic', model: 'claude-haiku-5-5' });
    const sent = server.requests.at(-1)?.body as { max_tokens?: number };
    expect(sent.max_tokens).toBe(1);
  });

  it('reports a rejected key as the provider said it', async () => {
    const provider = new AnthropicProvider({ authToken: '', apiKey: '', baseURL: server.url });
    const probe = await probeProvider({ provider, model: 'claude-haiku-5-5', signal });
    expect(probe.ok).toBe(false);
    expect(!probe.ok && probe.reason).toMatch(/401|auth|key/i);
  });

  it('reports the first failure instead of waiting out the retries', async () => {
    const port = await closedPort();
    const provider = withRetry(new AnthropicProvider({ apiKey: 'sk', baseURL: `http://127.0.0.1:${port}` }), {
      maxRetries: 10,
    });
    const probe = await probeProvider({ provider, model: 'claude-haiku-5-5', signal, deadlineMs: 60_000 });
    expect(probe.ok).toBe(false);
    expect(!probe.ok && probe.reason).toMatch(/connect|refused|reach/i);
  });
});
