import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthError } from '../errors';
import type { ModelRequest } from '../types';
import { anthropicOptionsFromEnv } from './client';
import { fakeFetch, messageEvents } from './fake-fetch';
import { AnthropicProvider } from './provider';

const request: ModelRequest = {
  model: 'claude-opus-5-5',
  system: [{ text: 'sys' }],
  messages: [{ role: 'user', content: 'hi' }],
  maxTokens: 100,
  temperature: 0.5,
};

async function sendOnce(options: ConstructorParameters<typeof AnthropicProvider>[0]) {
  const { fetch, requests } = fakeFetch({ kind: 'sse', events: messageEvents([]) });
  const provider = new AnthropicProvider({ ...options, fetch });
  for await (const _event of provider.stream(request)) {
    // Drained only for the request it makes.
  }
  const sent = requests[0];
  if (!sent) throw new Error('no request was sent');
  return sent;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('AnthropicProvider over HTTP', () => {
  it('sends an API key as x-api-key and no Authorization header', async () => {
    const sent = await sendOnce({ apiKey: 'sk-ant-key' });
    expect(sent.headers.get('x-api-key')).toBe('sk-ant-key');
    expect(sent.headers.get('authorization')).toBeNull();
  });

  it('sends an auth token as a Bearer Authorization header and no x-api-key', async () => {
    const sent = await sendOnce({ authToken: 'oauth-token' });
    expect(sent.headers.get('authorization')).toBe('Bearer oauth-token');
    expect(sent.headers.get('x-api-key')).toBeNull();
  });

  it('ignores the SDK environment variables: only the given options count', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-from-env');
    vi.stubEnv('ANTHROPIC_BASE_URL', 'https://env.example');
    const sent = await sendOnce({ authToken: 'oauth-token' });
    expect(sent.headers.get('x-api-key')).toBeNull();
    expect(sent.url).toBe('https://api.anthropic.com/v1/messages');
  });

  it('posts a streaming request to the configured base URL with custom headers', async () => {
    const sent = await sendOnce({
      apiKey: 'k',
      baseURL: 'http://127.0.0.1:8787/proxy',
      defaultHeaders: { 'x-yoke-session': 'abc' },
    });
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('http://127.0.0.1:8787/proxy/v1/messages');
    expect(sent.headers.get('x-yoke-session')).toBe('abc');
    expect(sent.headers.get('anthropic-version')).toBeTruthy();
    expect(sent.body).toMatchObject({
      model: 'claude-opus-5-5',
      max_tokens: 100,
      stream: true,
      temperature: 0.5,
      system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] },
      ],
    });
  });

  it('counts tokens through the count_tokens endpoint', async () => {
    const { fetch, requests } = fakeFetch({ kind: 'json', status: 200, body: { input_tokens: 1234 } });
    const provider = new AnthropicProvider({ apiKey: 'k', fetch });
    await expect(provider.countTokens(request)).resolves.toBe(1234);
    expect(requests[0]?.url).toBe('https://api.anthropic.com/v1/messages/count_tokens');
    expect(requests[0]?.body).not.toHaveProperty('max_tokens');
    expect(requests[0]?.body).not.toHaveProperty('stream');
    expect(requests[0]?.body).toMatchObject({ model: 'claude-opus-5-5' });
  });

  it('classifies count_tokens failures like stream failures', async () => {
    const { fetch } = fakeFetch({
      kind: 'json',
      status: 401,
      body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
    });
    const provider = new AnthropicProvider({ apiKey: 'bad', fetch });
    await expect(provider.countTokens(request)).rejects.toBeInstanceOf(AuthError);
  });
});

describe('anthropicOptionsFromEnv', () => {
  it('reads the key, the token and the base URL', () => {
    expect(
      anthropicOptionsFromEnv({
        ANTHROPIC_API_KEY: 'sk-1',
        ANTHROPIC_AUTH_TOKEN: 'tok',
        ANTHROPIC_BASE_URL: 'https://gw.example',
      }),
    ).toEqual({ apiKey: 'sk-1', authToken: 'tok', baseURL: 'https://gw.example' });
  });

  it('treats blank variables as unset', () => {
    expect(anthropicOptionsFromEnv({ ANTHROPIC_API_KEY: '  ', ANTHROPIC_BASE_URL: '' })).toEqual({});
  });
});
