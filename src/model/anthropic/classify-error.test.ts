import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  AuthError,
  ConnectionError,
  InvalidRequestError,
  MediaError,
  ModelError,
  OverloadedError,
  PromptTooLongError,
  RateLimitError,
  ServerError,
} from '../errors';
import { classifyAnthropicError } from './classify-error';

/** A real SDK error exactly as the client builds it from an HTTP error response. */
function httpError(
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
): APIError {
  return APIError.generate(
    status,
    { type: 'error', error: { type, message } },
    undefined,
    new Headers({ 'request-id': 'req_abc', ...headers }),
  );
}

/** A real SDK error as the stream iterator builds it from an SSE `error` event. */
function streamError(type: string, message: string): APIError {
  return new APIError(
    undefined,
    { type: 'error', error: { type, message } },
    undefined,
    new Headers({ 'request-id': 'req_stream' }),
    type as APIError['type'],
  );
}

describe('classifyAnthropicError', () => {
  it('uses the API message instead of the SDK message with its JSON dump', () => {
    const raw = httpError(400, 'invalid_request_error', 'max_tokens: must be at least 1');
    expect(raw.message).toContain('{');
    const error = classifyAnthropicError(raw) as ModelError;
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.message).toBe('max_tokens: must be at least 1');
    expect(error.requestId).toBe('req_abc');
    expect(error.status).toBe(400);
    expect(error.describe()).toBe('max_tokens: must be at least 1 (HTTP 400) [request req_abc]');
  });

  it.each([
    [401, AuthError],
    [403, AuthError],
    [429, RateLimitError],
    [529, OverloadedError],
    [413, PromptTooLongError],
    [404, InvalidRequestError],
    [422, InvalidRequestError],
    [500, ServerError],
    [503, ServerError],
  ])('maps HTTP %i to %o', (status, type) => {
    expect(classifyAnthropicError(httpError(status, 'some_error', 'x'))).toBeInstanceOf(type);
  });

  it('reads retry-after given as an HTTP date', () => {
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    const error = classifyAnthropicError(
      httpError(429, 'rate_limit_error', 'x', { 'retry-after': inTenSeconds }),
    );
    const waited = (error as RateLimitError).retryAfterMs ?? 0;
    expect(waited).toBeGreaterThan(8_000);
    expect(waited).toBeLessThanOrEqual(10_000);
  });

  it('carries retry-after on overloaded errors too', () => {
    const error = classifyAnthropicError(
      httpError(529, 'overloaded_error', 'Overloaded', { 'retry-after': '3' }),
    );
    expect((error as OverloadedError).retryAfterMs).toBe(3000);
  });

  it('finds prompt-too-long in a 400 and leaves an unrelated 400 alone', () => {
    const tooLong = classifyAnthropicError(
      httpError(400, 'invalid_request_error', 'prompt is too long: 1,000,123 tokens > 1,000,000 maximum'),
    );
    expect(tooLong).toBeInstanceOf(PromptTooLongError);
    expect((tooLong as PromptTooLongError).actualTokens).toBe(1_000_123);
    expect((tooLong as PromptTooLongError).limitTokens).toBe(1_000_000);
    const other = classifyAnthropicError(
      httpError(400, 'invalid_request_error', 'tools.0.name: String should match pattern'),
    );
    expect(other).toBeInstanceOf(InvalidRequestError);
  });

  it.each([
    'messages.0.content.0.image.source.base64: image exceeds 5 MB maximum: 6000000 bytes > 5242880 bytes',
    'messages.1.content.2.image: image dimensions exceed max allowed size for many-image requests: 2000 pixels',
    'messages.0.content.0.document.source: The PDF specified was not valid.',
    'Could not process image',
  ])('recognises a media problem: %s', (message) => {
    expect(classifyAnthropicError(httpError(400, 'invalid_request_error', message))).toBeInstanceOf(
      MediaError,
    );
  });

  it('classifies in-stream error events by their type, keeping the request id', () => {
    const overloaded = classifyAnthropicError(streamError('overloaded_error', 'Overloaded')) as ModelError;
    expect(overloaded).toBeInstanceOf(OverloadedError);
    expect(overloaded.requestId).toBe('req_stream');
    expect(overloaded.status).toBeUndefined();
    expect(classifyAnthropicError(streamError('api_error', 'Internal server error'))).toBeInstanceOf(
      ServerError,
    );
    expect(classifyAnthropicError(streamError('rate_limit_error', 'x'))).toBeInstanceOf(RateLimitError);
    expect(classifyAnthropicError(streamError('invalid_request_error', 'x'))).toBeInstanceOf(
      InvalidRequestError,
    );
  });

  it('turns user aborts into AbortedError', () => {
    expect(classifyAnthropicError(new APIUserAbortError())).toBeInstanceOf(AbortedError);
    expect(classifyAnthropicError(new DOMException('aborted', 'AbortError'))).toBeInstanceOf(AbortedError);
  });

  it('turns timeouts and connection failures into ConnectionError, mid-stream only when told so', () => {
    const timeout = classifyAnthropicError(new APIConnectionTimeoutError());
    expect(timeout).toBeInstanceOf(ConnectionError);
    expect((timeout as ConnectionError).midStream).toBe(false);
    const refused = new APIConnectionError({
      cause: new TypeError('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND api.example') }),
    });
    const connection = classifyAnthropicError(refused) as ConnectionError;
    expect(connection.message).toContain('getaddrinfo ENOTFOUND api.example');
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const midStream = classifyAnthropicError(reset, {
      midStream: true,
      requestId: 'req_1',
    }) as ConnectionError;
    expect(midStream).toBeInstanceOf(ConnectionError);
    expect(midStream.midStream).toBe(true);
    expect(midStream.requestId).toBe('req_1');
  });

  it('treats an unparsable SSE event as a broken transfer', () => {
    const error = classifyAnthropicError(new SyntaxError('Unexpected token'), { midStream: true });
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).retryable).toBe(true);
  });

  it('passes typed errors through and wraps unknown ones as non-retryable ModelError', () => {
    const typed = new ServerError('already typed');
    expect(classifyAnthropicError(typed)).toBe(typed);
    const unknown = classifyAnthropicError(new Error('something odd')) as ModelError;
    expect(unknown.constructor).toBe(ModelError);
    expect(unknown.message).toBe('Unexpected failure talking to the Anthropic API: something odd');
    expect(unknown.retryable).toBe(false);
  });

  it('describes an error response without a body by its status', () => {
    const error = classifyAnthropicError(
      APIError.generate(503, undefined, undefined, new Headers()),
    ) as ModelError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe('The Anthropic API returned HTTP 503 without a message.');
  });
});
