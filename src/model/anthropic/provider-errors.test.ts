import { describe, expect, it, vi } from 'vitest';
import {
  AbortedError,
  AuthError,
  InvalidRequestError,
  InvalidResponseError,
  MediaError,
  MissingCredentialsError,
  ModelNotFoundError,
  OverloadedError,
  PromptTooLongError,
  RateLimitError,
  ServerError,
} from '../errors';
import type { StreamEvent } from '../types';
import { fakeFetch, messageEvents, REQUEST_ID } from './fake-fetch';
import { AnthropicProvider } from './provider';
import { apiError, drain, errorFor, partialEvents, request } from './provider-test-support';

describe('AnthropicProvider.stream errors from HTTP responses', () => {
  it.each([
    [
      401,
      'authentication_error',
      'invalid x-api-key',
      'rejected the key in ANTHROPIC_API_KEY (invalid x-api-key)',
    ],
    [
      403,
      'permission_error',
      'Your API key does not have permission to use the specified resource.',
      'refused the request made with the key in ANTHROPIC_API_KEY (Your API key does not have permission',
    ],
  ])(
    'classifies %i as AuthError naming the key variable, with status and request id',
    async (status, type, message, expected) => {
      const error = await errorFor(apiError(status, type, message));
      expect(error).toBeInstanceOf(AuthError);
      expect(error.message).toContain(expected);
      expect(error.status).toBe(status);
      expect(error.requestId).toBe(REQUEST_ID);
      expect(error.retryable).toBe(false);
    },
  );

  it('names ANTHROPIC_AUTH_TOKEN when the bearer token was refused', async () => {
    const { fetch } = fakeFetch(apiError(401, 'authentication_error', 'invalid bearer token'));
    const { error } = await drain(new AnthropicProvider({ authToken: 'tok', fetch }));
    expect((error as Error).message).toContain('the key in ANTHROPIC_AUTH_TOKEN');
  });

  it('names the model and the aliases for a 404 about the model', async () => {
    const error = await errorFor(apiError(404, 'not_found_error', 'model: claude-opus-5-5'));
    expect(error).toBeInstanceOf(ModelNotFoundError);
    expect((error as ModelNotFoundError).model).toBe('claude-opus-5-5');
    expect(error.message).toBe(
      'The Anthropic API does not know the model "claude-opus-5-5" (model: claude-opus-5-5). Check --model ' +
        'or the "model" setting; aliases: opus → claude-opus-5-5, sonnet → claude-sonnet-5-5, haiku → claude-haiku-5-5.',
    );
    expect(error.retryable).toBe(false);
  });

  it('says a 404 for a path is a base URL mistake', async () => {
    const { fetch } = fakeFetch({ kind: 'text', status: 404, body: 'Not Found' });
    const { error } = await drain(
      new AnthropicProvider({ apiKey: 'sk-test', baseURL: 'https://gw.example.com/v1', fetch }),
    );
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).not.toBeInstanceOf(ModelNotFoundError);
    expect((error as Error).message).toBe(
      'The server at https://gw.example.com/v1 has no such endpoint (Not Found). Check ANTHROPIC_BASE_URL. ' +
        'The base URL is the server root, without /v1: try https://gw.example.com.',
    );
  });

  it("names the server root for a base URL that is the endpoint's whole address", async () => {
    const { fetch } = fakeFetch({ kind: 'text', status: 404, body: 'Not Found' });
    const { error } = await drain(
      new AnthropicProvider({ apiKey: 'sk-test', baseURL: 'https://gw.example.com/v1/messages', fetch }),
    );
    expect((error as Error).message).toMatch(
      /The base URL is the server root, without \/v1\/messages: try https:\/\/gw\.example\.com\.$/,
    );
  });

  it('fails at once on a 200 HTML page instead of reading it as a dropped stream', async () => {
    const page = '<html><head><title>Sign in - Corporate Proxy</title></head><body>Log in</body></html>';
    const { fetch, requests } = fakeFetch({
      kind: 'text',
      status: 200,
      body: page,
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
    const { error } = await drain(
      new AnthropicProvider({ apiKey: 'sk-test', baseURL: 'https://gw.example.com', fetch }),
    );
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).retryable).toBe(false);
    expect((error as Error).message).toBe(
      'The server at https://gw.example.com answered with an HTML page instead of an event stream ' +
        '("Sign in - Corporate Proxy"). Check ANTHROPIC_BASE_URL: it should be the API\'s address, not a web ' +
        "page or a proxy's login.",
    );
    expect(requests).toHaveLength(1);
  });

  it('follows no redirect and names the variable to update', async () => {
    const { fetch } = fakeFetch({
      kind: 'text',
      status: 301,
      body: '',
      headers: { location: 'https://new.example.com/' },
    });
    const { error } = await drain(
      new AnthropicProvider({ apiKey: 'sk-test', baseURL: 'http://old.example.com', fetch }),
    );
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as Error).message).toBe(
      'The server at http://old.example.com redirected the request to https://new.example.com/. Set ' +
        'ANTHROPIC_BASE_URL to the address it moved to.',
    );
  });

  it('classifies 429 as RateLimitError waiting as long as retry-after says', async () => {
    const error = await errorFor(
      apiError(429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', {
        'retry-after': '7',
      }),
    );
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(7000);
    expect(error.message).toBe('Number of request tokens has exceeded your per-minute rate limit');
    expect(error.retryable).toBe(true);
  });

  it('prefers the millisecond retry-after-ms header over retry-after', async () => {
    const error = await errorFor(
      apiError(429, 'rate_limit_error', 'slow down', { 'retry-after': '7', 'retry-after-ms': '1500' }),
    );
    expect((error as RateLimitError).retryAfterMs).toBe(1500);
  });

  it('classifies 529 as OverloadedError', async () => {
    const error = await errorFor(apiError(529, 'overloaded_error', 'Overloaded'));
    expect(error).toBeInstanceOf(OverloadedError);
    expect(error.message).toBe('Overloaded');
    expect(error.status).toBe(529);
  });

  it('classifies a 400 "prompt is too long" as PromptTooLongError with both token counts', async () => {
    const error = await errorFor(
      apiError(400, 'invalid_request_error', 'prompt is too long: 210432 tokens > 200000 maximum'),
    );
    expect(error).toBeInstanceOf(PromptTooLongError);
    expect((error as PromptTooLongError).actualTokens).toBe(210432);
    expect((error as PromptTooLongError).limitTokens).toBe(200000);
    expect(error.status).toBe(400);
  });

  it('classifies 413 as PromptTooLongError even without counts', async () => {
    const error = await errorFor(
      apiError(413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.'),
    );
    expect(error).toBeInstanceOf(PromptTooLongError);
    expect((error as PromptTooLongError).actualTokens).toBeUndefined();
    expect(error.status).toBe(413);
  });

  it.each([
    'messages.0.content.1.image.source.base64: image exceeds 5 MB maximum: 7340032 bytes > 5242880 bytes',
    'messages.2.content.0.document: A maximum of 100 PDF pages may be provided.',
  ])('classifies a 400 about media as MediaError: %s', async (message) => {
    const error = await errorFor(apiError(400, 'invalid_request_error', message));
    expect(error).toBeInstanceOf(MediaError);
    expect(error.message).toBe(message);
  });

  it.each([[400, 'invalid_request_error', 'messages: roles must alternate between "user" and "assistant"']])(
    'classifies other %i errors as InvalidRequestError',
    async (status, type, message) => {
      const error = await errorFor(apiError(status, type, message));
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect(error.message).toBe(message);
      expect(error.retryable).toBe(false);
    },
  );

  it('classifies 500 as ServerError and a non-JSON 502 body as ServerError with that text', async () => {
    const internal = await errorFor(apiError(500, 'api_error', 'Internal server error'));
    expect(internal).toBeInstanceOf(ServerError);
    expect(internal.message).toBe('Internal server error');
    const gateway = await errorFor({ kind: 'text', status: 502, body: 'upstream connect error' });
    expect(gateway).toBeInstanceOf(ServerError);
    expect(gateway.message).toBe('upstream connect error');
    expect(gateway.status).toBe(502);
  });

  it('makes exactly one HTTP request per call: the SDK does not retry on its own', async () => {
    const { fetch, requests } = fakeFetch(
      apiError(500, 'api_error', 'boom'),
      apiError(500, 'api_error', 'boom'),
    );
    await drain(new AnthropicProvider({ apiKey: 'sk-test', fetch }));
    expect(requests).toHaveLength(1);
  });
});

describe('AnthropicProvider.stream abort and credentials', () => {
  it('throws AbortedError when aborted mid-stream, after the events already received', async () => {
    const { fetch } = fakeFetch({ kind: 'sse', events: partialEvents, ending: 'hang' });
    const provider = new AnthropicProvider({ apiKey: 'sk-test', fetch });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    let error: unknown;
    try {
      for await (const event of provider.stream(request, controller.signal)) {
        events.push(event);
        if (event.type === 'text_delta') controller.abort();
      }
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(AbortedError);
    expect(events.at(-1)).toEqual({ type: 'text_delta', index: 0, text: 'Hal' });
  });

  it('throws AbortedError while waiting for the response headers', async () => {
    const { fetch, requests } = fakeFetch({ kind: 'stall' });
    const controller = new AbortController();
    const pending = drain(new AnthropicProvider({ apiKey: 'sk-test', fetch }), controller.signal);
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    controller.abort();
    expect((await pending).error).toBeInstanceOf(AbortedError);
  });

  it('throws AbortedError without sending anything when the signal is already aborted', async () => {
    const { fetch, requests } = fakeFetch({ kind: 'sse', events: messageEvents([]) });
    const { error } = await drain(new AnthropicProvider({ apiKey: 'sk-test', fetch }), AbortSignal.abort());
    expect(error).toBeInstanceOf(AbortedError);
    expect(requests).toHaveLength(0);
  });

  it('throws MissingCredentialsError naming both variables when no credential was given', async () => {
    const { fetch, requests } = fakeFetch({ kind: 'sse', events: messageEvents([]) });
    const { error } = await drain(new AnthropicProvider({ fetch }));
    expect(error).toBeInstanceOf(MissingCredentialsError);
    expect((error as Error).message).toContain('ANTHROPIC_API_KEY');
    expect((error as Error).message).toContain('ANTHROPIC_AUTH_TOKEN');
    expect(requests).toHaveLength(0);
  });
});
