/**
 * Any failure from the OpenAI SDK (or the stream beneath it) → one of Yoke's typed model errors,
 * so that the retry layer and the query loop decide by type and the user reads one clear line.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { authFailure, connectionFailure, notFoundFailure, redirectFailure } from '../endpoint-errors';
import {
  AbortedError,
  type ClassifyContext,
  ConnectionError,
  InvalidRequestError,
  isAbortError,
  MediaError,
  ModelError,
  type ModelErrorOptions,
  OverloadedError,
  PromptTooLongError,
  parsePromptTooLong,
  RateLimitError,
  retryAfterFromHeaders,
  ServerError,
  shouldRetryHeader,
} from '../errors';
import { findDeadline } from '../http/deadline';
import { openAIEndpoint } from './endpoint';

export function classifyOpenAIError(err: unknown, context: ClassifyContext = {}): Error {
  if (err instanceof ModelError || err instanceof AbortedError) return err;
  if (isAbortError(err)) return new AbortedError();
  const midStream = context.midStream ?? false;
  const endpoint = context.endpoint ?? openAIEndpoint({});
  if (err instanceof APIConnectionTimeoutError) {
    return new ConnectionError('The model API timed out.', midStream, { cause: err });
  }
  if (err instanceof APIConnectionError || findDeadline(err)) {
    return connectionFailure(err, endpoint, { midStream, requestId: context.requestId });
  }
  if (err instanceof APIError) return classifyApiError(err, context);
  if (err instanceof SyntaxError) {
    return new ServerError(`The model API sent an unreadable stream chunk: ${err.message}`, {
      requestId: context.requestId,
      cause: err,
    });
  }
  // Anything else surfaced while reading the body is the transport failing (socket closed,
  // "terminated", ECONNRESET): retryable, and mid-stream once events have been emitted.
  return connectionFailure(err, endpoint, { midStream, requestId: context.requestId });
}

function classifyApiError(err: APIError, context: ClassifyContext): Error {
  const status = err.status;
  const detail = detailOf(err);
  const options: ModelErrorOptions = { status, requestId: err.requestID ?? context.requestId, cause: err };
  const headers = err.headers;

  if (isPromptTooLong(err, detail, status)) {
    const counts = contextCounts(err) ?? parsePromptTooLong(detail) ?? {};
    return new PromptTooLongError(`Prompt is too long: ${detail}`, counts.actual, counts.limit, options);
  }
  if (status === undefined) return classifyStreamedError(err, detail, options);
  const endpoint = context.endpoint ?? openAIEndpoint({});
  if (status === 401 || status === 403) return authFailure(detail, status, endpoint, options);
  if (status >= 300 && status < 400)
    return redirectFailure(headers?.get('location') ?? null, endpoint, options);
  if (status === 404) {
    return notFoundFailure(detail, typeof err.code === 'string' ? err.code : undefined, endpoint, {
      ...options,
      model: context.model,
    });
  }
  if (status === 429) {
    // Exhausted billing quota comes as 429 too, but waiting does not fix it.
    if (err.code === 'insufficient_quota')
      return new InvalidRequestError(`Quota exceeded: ${detail}`, options);
    return new RateLimitError(
      `Rate limited by the model API: ${detail}`,
      retryAfterFromHeaders(headers),
      options,
    );
  }
  if (status === 529 || (status === 503 && /overload/i.test(detail))) {
    return new OverloadedError(
      `The model API is overloaded: ${detail}`,
      retryAfterFromHeaders(headers),
      options,
    );
  }
  if (status === 400 && isMediaProblem(err, detail)) {
    return new MediaError(`The model API could not use an image or document: ${detail}`, options);
  }
  if (status >= 400 && status < 500) {
    return new InvalidRequestError(`The model API rejected the request: ${detail}`, options);
  }
  return new ServerError(`The model API failed: ${detail}`, {
    ...options,
    retryable: shouldRetryHeader(err.headers),
  });
}

/** An `error` object inside the SSE stream: no HTTP status, only its code, type and message. */
function classifyStreamedError(err: APIError, detail: string, options: ModelErrorOptions): Error {
  const kind = `${err.code ?? ''} ${err.type ?? ''} ${detail}`;
  if (/rate.?limit/i.test(kind))
    return new RateLimitError(`Rate limited by the model API: ${detail}`, undefined, options);
  if (/overload/i.test(kind))
    return new OverloadedError(`The model API is overloaded: ${detail}`, undefined, options);
  return new ServerError(`The model API reported an error mid-response: ${detail}`, options);
}

function isPromptTooLong(err: APIError, detail: string, status: number | undefined): boolean {
  if (status === 413) return true;
  if (status !== undefined && status !== 400) return false;
  return (
    err.code === 'context_length_exceeded' ||
    err.type === 'exceed_context_size_error' ||
    /exceeds the available context size/i.test(detail) ||
    parsePromptTooLong(detail) !== undefined
  );
}

/** llama.cpp server puts the counts in the error object instead of the message. */
function contextCounts(err: APIError): { actual?: number; limit?: number } | undefined {
  const body = err.error as { n_prompt_tokens?: unknown; n_ctx?: unknown } | undefined;
  if (typeof body?.n_prompt_tokens !== 'number' || typeof body.n_ctx !== 'number') return undefined;
  return { actual: body.n_prompt_tokens, limit: body.n_ctx };
}

function isMediaProblem(err: APIError, detail: string): boolean {
  const code = `${err.code ?? ''} ${err.param ?? ''}`;
  return /image|file/i.test(code) || /\bimages?\b|image_url|multimodal|vision|mime|media type/i.test(detail);
}

/** The server's own message, without the "429 " prefix the SDK adds (describe() shows status). */
function detailOf(err: APIError): string {
  const body = err.error as { message?: unknown } | undefined;
  if (typeof body?.message === 'string' && body.message) return body.message;
  const stripped =
    err.status === undefined ? err.message : err.message.replace(new RegExp(`^${err.status} `), '');
  return stripped && stripped !== 'status code (no body)' ? stripped : 'no details given';
}
