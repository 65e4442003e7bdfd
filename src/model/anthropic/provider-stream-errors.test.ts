import { describe, expect, it } from 'vitest';
import { ConnectionError, OverloadedError, UnreachableError } from '../errors';
import { fakeFetch, REQUEST_ID, socketReset } from './fake-fetch';
import { AnthropicProvider } from './provider';
import { drain, errorFor, partialEvents } from './provider-test-support';

describe('AnthropicProvider.stream errors during the stream', () => {
  it('throws OverloadedError for an in-stream overloaded_error event, after the events before it', async () => {
    const { fetch } = fakeFetch({
      kind: 'sse',
      events: [
        ...partialEvents,
        {
          event: 'error',
          data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        },
      ],
    });
    const { events, error } = await drain(new AnthropicProvider({ apiKey: 'sk-test', fetch }));
    expect(events.map((e) => e.type)).toEqual(['message_start', 'block_start', 'text_delta']);
    expect(error).toBeInstanceOf(OverloadedError);
    expect((error as OverloadedError).message).toBe('Overloaded');
    expect((error as OverloadedError).requestId).toBe(REQUEST_ID);
  });

  it('throws a mid-stream ConnectionError when the body ends before message_stop', async () => {
    const error = await errorFor({ kind: 'sse', events: partialEvents, ending: 'close' });
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).midStream).toBe(true);
    expect(error.requestId).toBe(REQUEST_ID);
    expect(error.retryable).toBe(true);
  });

  it('throws a mid-stream ConnectionError when the socket resets during the body', async () => {
    const error = await errorFor({ kind: 'sse', events: partialEvents, ending: socketReset() });
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).midStream).toBe(true);
    expect(error.message).toContain('other side closed');
  });

  it('throws a ConnectionError that is not mid-stream for an empty 200 body', async () => {
    const error = await errorFor({ kind: 'sse', events: [] });
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).midStream).toBe(false);
  });

  it('on a configured address, says an empty stream may be an OpenAI-compatible server', async () => {
    const { fetch } = fakeFetch({ kind: 'sse', events: [] });
    const { error } = await drain(
      new AnthropicProvider({ apiKey: 'k', baseURL: 'http://localhost:8000', fetch }),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe(
      'The server at http://localhost:8000 answered with an event stream that holds no Anthropic Messages API ' +
        'event. If it is an OpenAI-compatible server (Ollama, vLLM, llama.cpp), set ' +
        'OPENAI_BASE_URL=http://localhost:8000/v1 instead of ANTHROPIC_BASE_URL.',
    );
  });

  it('a 404 for the path at a configured root names OPENAI_BASE_URL for an OpenAI-compatible server', async () => {
    const { fetch } = fakeFetch({ kind: 'text', status: 404, body: '{"detail":"Not Found"}' });
    const { error } = await drain(
      new AnthropicProvider({ apiKey: 'k', baseURL: 'http://localhost:8000', fetch }),
    );
    expect((error as Error).message).toMatch(
      /^The server at http:\/\/localhost:8000 has no such endpoint \(.*\)\. Check ANTHROPIC_BASE_URL\. The base URL is the server root, without \/v1\. If it speaks the OpenAI API \(Ollama, vLLM, llama\.cpp\), set OPENAI_BASE_URL=http:\/\/localhost:8000\/v1 instead\.$/,
    );
  });

  it('fails fast when nothing listens at the base URL, naming the variable and asking about the server', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const { fetch, requests } = fakeFetch({ kind: 'network-error', error: refused });
    const { error } = await drain(
      new AnthropicProvider({ apiKey: 'k', baseURL: 'http://127.0.0.1:9', fetch }),
    );
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as UnreachableError).retryable).toBe(false);
    expect((error as Error).message).toBe(
      'Cannot reach the server at http://127.0.0.1:9 (set by ANTHROPIC_BASE_URL): connection refused ' +
        '(connect ECONNREFUSED 127.0.0.1:9). Is the server running, and is ANTHROPIC_BASE_URL right?',
    );
    expect(requests).toHaveLength(1);
  });

  it('says to check the network when the default API host cannot be resolved', async () => {
    const unknownHost = Object.assign(new Error('getaddrinfo ENOTFOUND api.anthropic.com'), {
      code: 'ENOTFOUND',
    });
    const error = await errorFor({ kind: 'network-error', error: unknownHost });
    expect(error).toBeInstanceOf(UnreachableError);
    expect(error.message).toBe(
      'Cannot reach the Anthropic API: no such host (getaddrinfo ENOTFOUND api.anthropic.com). Check your ' +
        'network connection.',
    );
  });

  it('throws a retryable ConnectionError naming the wait when no answer comes in time', async () => {
    const { fetch } = fakeFetch({ kind: 'stall' });
    const timeouts = { connectMs: 5_000, firstByteMs: 20, idleMs: 5_000 };
    const { error } = await drain(new AnthropicProvider({ apiKey: 'sk-test', fetch, timeouts }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).retryable).toBe(true);
    expect((error as ConnectionError).deadline?.phase).toBe('first_byte');
    expect((error as ConnectionError).message).toBe(
      'No answer from the Anthropic API: connected, but nothing came back within 20 ms',
    );
  });

  it('throws a mid-stream ConnectionError when the stream stalls between chunks', async () => {
    const { fetch } = fakeFetch({ kind: 'sse', events: partialEvents, ending: 'hang' });
    const timeouts = { connectMs: 5_000, firstByteMs: 5_000, idleMs: 20 };
    const { error, events } = await drain(new AnthropicProvider({ apiKey: 'sk-test', fetch, timeouts }));
    expect(events.length).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).midStream).toBe(true);
    expect((error as ConnectionError).deadline?.phase).toBe('idle');
    expect((error as ConnectionError).message).toMatch(
      /^The Anthropic API stopped sending mid-response: nothing received for 20 ms$/,
    );
  });
});
