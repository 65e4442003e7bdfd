/**
 * Any failure of an Anthropic SDK call → one of Yoke's typed model errors, so the retry layer and
 * the query loop decide by type and the user reads the API's own message.
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk/error';
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
import { anthropicEndpoint } from './client';

/** Error codes seen on sockets that dropped, were refused or timed out (Node and undici). */
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

const NETWORK_MESSAGE =
  /terminated|socket hang up|other side closed|fetch failed|network|premature close|timed? ?out/i;

/** Error types the API uses for mistakes in the request rather than trouble on its side. */
const REQUEST_ERROR_TYPES = new Set([
  'invalid_request_error',
  'not_found_error',
  'billing_error',
  'conflict_error',
  'memory_precondition_failed_error',
  'memory_path_conflict_error',
]);

export function classifyAnthropicError(err: unknown, context: ClassifyContext = {}): Error {
  if (err instanceof ModelError || err instanceof AbortedError) return err;
  if (err instanceof APIUserAbortError || isAbortError(err)) return new AbortedError();
  const midStream = context.midStream ?? false;
  const endpoint = context.endpoint ?? anthropicEndpoint({});
  const failure = { midStream, requestId: context.requestId };
  if (err instanceof APIConnectionTimeoutError) {
    return new ConnectionError('The Anthropic API did not respond in time.', midStream, {
      requestId: context.requestId,
      cause: err,
    });
  }
  if (err instanceof APIConnectionError || findDeadline(err) || isNetworkFailure(err)) {
    return connectionFailure(err, endpoint, failure);
  }
  if (err instanceof APIError) return classifyApiError(err, context);
  if (err instanceof SyntaxError) {
    // The SDK throws this for an SSE event whose data is not JSON: a corrupted transfer.
    return new ConnectionError(`The Anthropic API sent a malformed stream: ${err.message}`, midStream, {
      requestId: context.requestId,
      cause: err,
    });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ModelError(message, { requestId: context.requestId, cause: err });
}

function classifyApiError(err: APIError, context: ClassifyContext): Error {
  const status = err.status;
  const type = err.type;
  const options: ModelErrorOptions = {
    status,
    requestId: err.requestID ?? context.requestId,
    cause: err,
  };
  const endpoint = context.endpoint ?? anthropicEndpoint({});
  const message = readableMessage(err);
  if (status === 401 || status === 403 || type === 'authentication_error' || type === 'permission_error') {
    return authFailure(message, status, endpoint, options);
  }
  if (status === 429 || type === 'rate_limit_error') {
    return new RateLimitError(message, retryAfterFromHeaders(err.headers), options);
  }
  if (status === 529 || type === 'overloaded_error') {
    return new OverloadedError(message, retryAfterFromHeaders(err.headers), options);
  }
  if (status !== undefined && status >= 300 && status < 400) {
    return redirectFailure(err.headers?.get('location') ?? null, endpoint, options);
  }
  if (status === 404 || type === 'not_found_error') {
    return notFoundFailure(message, type ?? undefined, endpoint, { ...options, model: context.model });
  }
  const isRequestError =
    (status !== undefined && status >= 400 && status < 500) ||
    (type !== null && REQUEST_ERROR_TYPES.has(type));
  if (isRequestError) {
    const tooLong = parsePromptTooLong(message);
    if (status === 413 || tooLong) {
      return new PromptTooLongError(message, tooLong?.actual, tooLong?.limit, options);
    }
    if (err.errorCode === 'image_dimensions_too_large' || isMediaProblem(message)) {
      return new MediaError(message, options);
    }
    return new InvalidRequestError(message, options);
  }
  return new ServerError(message, { ...options, retryable: shouldRetryHeader(err.headers) });
}

/** The API's own sentence; the SDK's `message` is "<status> <JSON of the body>". */
function readableMessage(err: APIError): string {
  if (err.apiMessage) return err.apiMessage;
  const stripped = err.message.replace(/^\d{3}\s+/, '');
  if (stripped && !/\(no body\)$|^\(no status code or body\)$/.test(stripped)) return stripped;
  if (err.status !== undefined) return `The Anthropic API returned HTTP ${err.status} without a message.`;
  return 'The Anthropic API reported an error without a message.';
}

function isMediaProblem(message: string): boolean {
  return (
    /\b(image|images|pdf|media|document)\b|image\.source|media_type/i.test(message) &&
    /exceed|too (large|big|many|long)|maximum|max allowed|dimension|size|pages|could not process|not valid|invalid|unsupported/i.test(
      message,
    )
  );
}

function isNetworkFailure(err: unknown): boolean {
  for (let current = err, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (NETWORK_MESSAGE.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}
