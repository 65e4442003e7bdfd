/**
 * The one failure policy of both wires. Every error a provider meets becomes one of Yoke's typed
 * model errors here, so the same failure is retried or not the same way whether it came over the
 * Anthropic Messages wire or the OpenAI-compatible chat wire: the wire adapters
 * (`anthropic/classify-error.ts`, `openai/classify-error.ts`) only read their SDK's error into an
 * `ApiFailure` and say which of their SDK's classes mean "no connection".
 *
 * | failure                                                     | class                 | retried |
 * |-------------------------------------------------------------|-----------------------|---------|
 * | the caller aborted                                          | AbortedError          | no      |
 * | refused, no such host, unreachable (before any event)       | UnreachableError      | no      |
 * | reset, dropped, a transport deadline, a known socket error  | ConnectionError       | yes     |
 * | a stream chunk that is not JSON (a corrupted transfer)      | ConnectionError       | yes     |
 * | 408: the server gave up waiting for the request             | ConnectionError       | yes     |
 * | 401, 403, `authentication_error`, `permission_error`        | AuthError             | no      |
 * | 3xx (the transport never follows redirects)                 | InvalidRequestError   | no      |
 * | a 4xx web page (a proxy's, a firewall's), but 404/413/429    | InvalidResponseError  | no      |
 * | `insufficient_quota`, `billing_error`                       | InvalidRequestError   | no      |
 * | 429, `rate_limit_error`; in a stream: "rate limit"          | RateLimitError        | yes     |
 * | 529, `overloaded_error`; 503 or in a stream: "overloaded"   | OverloadedError       | yes, own budget |
 * | 404, `not_found_error`, `model_not_found`                   | ModelNotFoundError / InvalidRequestError | no |
 * | 413; a request error that says the context is too long      | PromptTooLongError    | no      |
 * | a request error about an image or document                  | MediaError            | no      |
 * | any other 4xx; in a stream: `invalid_request_error` and kin | InvalidRequestError   | no      |
 * | 5xx, or an error event of a type not named above            | ServerError           | unless `x-should-retry: false` |
 * | anything else (no status, no socket error, not the API's)   | ModelError            | no      |
 *
 * The last row is a deliberate choice: a retry is a bet that the cause is passing, and a failure
 * nobody can name (a bug, a protocol Yoke does not speak) would only repeat with backoff for
 * minutes before the user hears of it.
 */
import { apiName, type Endpoint } from './endpoint';
import {
  authFailure,
  connectionFailure,
  notFoundFailure,
  readableDetail,
  redirectFailure,
  webPageFailure,
  webPageTitle,
} from './endpoint-errors';
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
} from './errors';
import { findDeadline, isTransportFailure } from './http/deadline';

type HeaderReader = { get(name: string): string | null } | undefined;

/** An error answer of the API as either SDK reports it: an HTTP error, or an error event in a stream. */
export type ApiFailure = {
  /** Undefined for an error event inside a stream, which has no status of its own. */
  status: number | undefined;
  /**
   * The API's machine-readable words for the error: Anthropic's `type` and `error_code`, OpenAI's
   * `type`, `code` and `param` (servers differ in which they fill).
   */
  codes: readonly string[];
  /** The API's own sentence; empty when it gave none. */
  message: string;
  headers: HeaderReader;
  requestId: string | undefined;
  /** Token counts some servers put in the error body (llama.cpp) instead of the message. */
  counts?: { actual?: number | undefined; limit?: number | undefined } | undefined;
};

/** What a wire adapter knows about its SDK's errors. */
export type WireErrors = {
  /** The SDK's error answer read into an ApiFailure; undefined for any other error. */
  apiFailure(err: unknown): ApiFailure | undefined;
  /** The SDK's own "could not connect / timed out" classes. */
  isConnectionError(err: unknown): boolean;
};

export type FailureContext = ClassifyContext & { endpoint: Endpoint };

/** Error codes of sockets that dropped, were refused or timed out (Node and undici). */
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
  'EADDRNOTAVAIL',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** What undici and Node say when a connection goes away without a code on the error itself. */
const NETWORK_MESSAGE =
  /terminated|socket hang up|other side closed|fetch failed|network|premature close|timed? ?out/i;

/** Error types and codes that mean a mistake in the request rather than trouble on the API's side. */
const REQUEST_ERROR_CODES = new Set([
  'invalid_request_error',
  'not_found_error',
  'billing_error',
  'conflict_error',
  'memory_precondition_failed_error',
  'memory_path_conflict_error',
  'context_length_exceeded',
  'exceed_context_size_error',
  'invalid_image_format',
  'image_dimensions_too_large',
]);

const QUOTA_CODES = new Set(['insufficient_quota', 'billing_error']);

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Any failure of a provider's call as a typed error, by the table in the file comment. */
export function classifyFailure(err: unknown, context: FailureContext, wire: WireErrors): Error {
  if (err instanceof ModelError || err instanceof AbortedError) return err;
  if (isAbortError(err)) return new AbortedError();
  const midStream = context.midStream ?? false;
  const { endpoint } = context;
  if (wire.isConnectionError(err) || findDeadline(err) || isNetworkFailure(err)) {
    return connectionFailure(err, endpoint, { midStream, requestId: context.requestId });
  }
  const api = wire.apiFailure(err);
  if (api) return classifyApiFailure(api, context, err);
  const options = { requestId: context.requestId, cause: err };
  if (err instanceof SyntaxError) {
    // Both SDKs throw this for a stream event whose data is not JSON: the transfer was garbled.
    return new ConnectionError(
      `${capitalize(apiName(endpoint))} sent a malformed stream chunk (${err.message})`,
      midStream,
      options,
    );
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ModelError(`Unexpected failure talking to ${apiName(endpoint)}: ${message}`, options);
}

/** An error answer of the API as a typed error (the HTTP and in-stream rows of the table). */
export function classifyApiFailure(api: ApiFailure, context: FailureContext, cause?: unknown): ModelError {
  const { status, codes } = api;
  const { endpoint } = context;
  const has = (...names: string[]) => names.some((name) => codes.includes(name));
  const inStream = status === undefined;
  const detail = readableDetail(api.message, codes.length > 0) || emptyMessage(endpoint, status);
  const options: ModelErrorOptions = {
    status,
    requestId: api.requestId ?? context.requestId,
    ...(cause === undefined ? {} : { cause }),
  };
  const said = `${codes.join(' ')} ${api.message}`;
  const page = webPageTitle(api.message);
  // A page where the API's JSON should be: the status is the proxy's, not the API's verdict. A
  // 404, 413 or 429 still means what it says; a 5xx page (502 Bad Gateway) is retried as a 5xx.
  if (page !== undefined && status !== undefined && status >= 400 && status < 500) {
    if (status !== 404 && status !== 413 && status !== 429) return webPageFailure(page, endpoint, options);
  }

  // A server that waited too long for the request: on a connection Yoke opened ahead and that
  // then sat idle (Node's headersTimeout answers so), or over a slow network. Sent again.
  if (status === 408) {
    return new ConnectionError(
      `${capitalize(apiName(endpoint))} timed out waiting for the request: ${detail}`,
      false,
      options,
    );
  }
  if (status === 401 || status === 403 || has('authentication_error', 'permission_error')) {
    return authFailure(detail, status, endpoint, options);
  }
  if (status !== undefined && status >= 300 && status < 400) {
    return redirectFailure(api.headers?.get('location') ?? null, endpoint, options);
  }
  if (codes.some((code) => QUOTA_CODES.has(code))) {
    return new InvalidRequestError(`Quota exceeded: ${detail}`, options);
  }
  if (status === 429 || has('rate_limit_error') || (inStream && /rate.?limit/i.test(said))) {
    return new RateLimitError(detail, retryAfterFromHeaders(api.headers), options);
  }
  const overloaded =
    status === 529 || has('overloaded_error') || ((status === 503 || inStream) && /overload/i.test(said));
  if (overloaded) return new OverloadedError(detail, retryAfterFromHeaders(api.headers), options);
  if (status === 404 || has('not_found_error', 'model_not_found')) {
    const code = codes.find((c) => c === 'not_found_error' || c === 'model_not_found');
    return notFoundFailure(detail, code, endpoint, { ...options, model: context.model });
  }
  // The status decides where there is one; an error event in a stream only has its words.
  const requestError = inStream
    ? codes.some((code) => REQUEST_ERROR_CODES.has(code))
    : status >= 400 && status < 500;
  if (requestError) {
    const tooLong = promptTooLong(api);
    if (tooLong) return new PromptTooLongError(detail, tooLong.actual, tooLong.limit, options);
    if (isMediaProblem(codes, api.message)) return new MediaError(detail, options);
    return new InvalidRequestError(detail, options);
  }
  const message = page === undefined ? detail : `${capitalize(apiName(endpoint))} answered with ${detail}`;
  return new ServerError(message, { ...options, retryable: shouldRetryHeader(api.headers) });
}

function emptyMessage(endpoint: Endpoint, status: number | undefined): string {
  const name = capitalize(apiName(endpoint));
  return status === undefined
    ? `${name} reported an error without a message.`
    : `${name} returned HTTP ${status} without a message.`;
}

/** The counts of a prompt-too-long error, or undefined when the error is something else. */
function promptTooLong(
  api: ApiFailure,
): { actual?: number | undefined; limit?: number | undefined } | undefined {
  const parsed = parsePromptTooLong(api.message);
  const named =
    api.status === 413 ||
    api.codes.includes('context_length_exceeded') ||
    api.codes.includes('exceed_context_size_error') ||
    /exceeds the available context size/i.test(api.message);
  if (!named && !parsed) return undefined;
  return api.counts ?? parsed ?? {};
}

function isMediaProblem(codes: readonly string[], message: string): boolean {
  if (codes.some((code) => /image|file/i.test(code))) return true;
  return (
    /\b(images?|pdf|media|document|multimodal|vision|mime)\b|image\.source|image_url|media.type/i.test(
      message,
    ) &&
    /exceed|too (large|big|many|long)|maximum|max allowed|dimension|size|pages|could not process|not valid|invalid|support/i.test(
      message,
    )
  );
}

/** A socket error, by its code or by what undici says, anywhere in the cause chain. */
export function isNetworkFailure(err: unknown): boolean {
  for (let current = err, depth = 0; current instanceof Error && depth < 6; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (isTransportFailure(current) || NETWORK_MESSAGE.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}
