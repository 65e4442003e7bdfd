/**
 * Typed model errors. Providers classify every failure into one of these so that the retry layer
 * and the query loop can decide by type, and the user gets one readable line.
 */
import type { Endpoint } from './endpoint';
import { findDeadline, type TransportDeadlineError } from './http/deadline';

export type ModelErrorOptions = {
  status?: number;
  requestId?: string;
  retryable?: boolean;
  cause?: unknown;
};

/** What a provider's error classifier knows about the call that failed. */
export type ClassifyContext = {
  /** The stream had already yielded events: a dropped connection is then mid-stream. */
  midStream?: boolean;
  /** The request id from the response headers, for errors that do not carry their own. */
  requestId?: string;
  /** The model the request asked for, to name it when the API does not know it. */
  model?: string;
  /** Where the request went and what set it, so errors can name the variable to fix. */
  endpoint?: Endpoint;
};

export class ModelError extends Error {
  override name = 'ModelError';
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly retryable: boolean;
  /** What the user can do about it, added by whoever knows (the retry layer, the query loop). */
  advice: string | undefined;

  constructor(message: string, options: ModelErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.requestId = options.requestId;
    this.retryable = options.retryable ?? false;
  }

  /** Adds a sentence of advice (kept in order when several layers add one); returns the error. */
  withAdvice(text: string): this {
    this.advice = this.advice === undefined ? text : `${this.advice} ${text}`;
    return this;
  }

  /** One line for the user: the message, the status and request id when the API gave them, advice. */
  describe(): string {
    const parts = [this.message];
    if (this.status !== undefined) parts.push(`(HTTP ${this.status})`);
    if (this.requestId) parts.push(`[request ${this.requestId}]`);
    const line = parts.join(' ');
    return this.advice === undefined ? line : `${line} — ${this.advice}`;
  }
}

/** 401/403, or no credentials at all. Never retried. */
export class AuthError extends ModelError {
  override name = 'AuthError';
}

/** No API key in the environment: the message names the variable to set. */
export class MissingCredentialsError extends AuthError {
  override name = 'MissingCredentialsError';
  constructor(
    readonly variables: string[],
    message = `No API key found: set ${variables.join(' or ')}.`,
  ) {
    super(message);
  }
}

/** 429. `retryAfterMs` comes from the retry-after header when present. */
export class RateLimitError extends ModelError {
  override name = 'RateLimitError';
  constructor(
    message: string,
    readonly retryAfterMs: number | undefined,
    options: ModelErrorOptions = {},
  ) {
    super(message, { ...options, retryable: true });
  }
}

/** 529 overloaded. Retried; after the retries the loop may switch to the fallback model. */
export class OverloadedError extends ModelError {
  override name = 'OverloadedError';
  constructor(
    message: string,
    readonly retryAfterMs: number | undefined = undefined,
    options: ModelErrorOptions = {},
  ) {
    super(message, { ...options, retryable: true });
  }
}

/** 5xx other than 529. Retried, unless the server said not to (`x-should-retry: false`). */
export class ServerError extends ModelError {
  override name = 'ServerError';
  constructor(message: string, options: ModelErrorOptions = {}) {
    super(message, { ...options, retryable: options.retryable ?? true });
  }
}

type HeaderReader = { get(name: string): string | null } | undefined;

/** `retry-after-ms` (precise, sent by Anthropic and OpenAI) wins over `retry-after` (seconds or a date). */
export function retryAfterFromHeaders(headers: HeaderReader): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms) {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  return parseRetryAfter(headers?.get('retry-after'));
}

/** The API's own verdict on retrying (`x-should-retry`), when it gave one. */
export function shouldRetryHeader(
  headers: { get(name: string): string | null } | undefined,
): boolean | undefined {
  const value = headers?.get('x-should-retry');
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

/**
 * Network failure: reset, out of time, or the stream dropped mid-response. Retried unless the
 * classifier knows better (see UnreachableError).
 */
export class ConnectionError extends ModelError {
  override name = 'ConnectionError';
  constructor(
    message: string,
    readonly midStream = false,
    options: ModelErrorOptions = {},
  ) {
    super(message, { ...options, retryable: options.retryable ?? true });
  }

  /** The wait that ran out, when one of the transport's deadlines ended the request. */
  get deadline(): TransportDeadlineError | undefined {
    return findDeadline(this.cause);
  }
}

/**
 * Nothing answers at the address (refused, no such host, no route): the base URL is wrong or the
 * server is not running. Retrying cannot fix that, so it fails at once and names the setting.
 */
export class UnreachableError extends ConnectionError {
  override name = 'UnreachableError';
  constructor(message: string, options: ModelErrorOptions = {}) {
    super(message, false, { ...options, retryable: false });
  }
}

/**
 * A successful status with something that is not the API's answer, typically an HTML page from a
 * proxy, a captive portal or a login wall. The same request would get the same page: not retried.
 */
export class InvalidResponseError extends ModelError {
  override name = 'InvalidResponseError';
}

/** 413, or a 400 saying the prompt is too long. Carries the counts the API reported. */
export class PromptTooLongError extends ModelError {
  override name = 'PromptTooLongError';
  constructor(
    message: string,
    readonly actualTokens: number | undefined,
    readonly limitTokens: number | undefined,
    options: ModelErrorOptions = {},
  ) {
    super(message, { ...options, retryable: false });
  }
}

/** An image or document the API refused (too large, bad format). */
export class MediaError extends ModelError {
  override name = 'MediaError';
}

/** Any other 4xx: the request itself is wrong. Not retried. */
export class InvalidRequestError extends ModelError {
  override name = 'InvalidRequestError';
}

/** A 404 for the requested model: the id is wrong or the server does not serve it. */
export class ModelNotFoundError extends InvalidRequestError {
  override name = 'ModelNotFoundError';
  constructor(
    message: string,
    readonly model: string,
    options: ModelErrorOptions = {},
  ) {
    super(message, options);
  }
}

/** A timer sleep that rejects with AbortedError as soon as the signal aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortedError());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The caller's AbortSignal fired. */
export class AbortedError extends Error {
  override name = 'AbortedError';
  constructor(message = 'The request was aborted.') {
    super(message);
  }
}

export function isAbortError(error: unknown): boolean {
  if (error instanceof AbortedError) return true;
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'APIUserAbortError');
}

/** Parses "prompt is too long: 210000 tokens > 200000 maximum" style messages. */
export function parsePromptTooLong(message: string): { actual?: number; limit?: number } | undefined {
  if (!/prompt is too long|too many tokens|context length|maximum context/i.test(message)) return undefined;
  const m = /(\d[\d,]*)\s*tokens?\s*>\s*(\d[\d,]*)/i.exec(message);
  if (m) return { actual: toInt(m[1]), limit: toInt(m[2]) };
  const openai = /maximum context length is (\d+) tokens.*?(?:resulted in|requested) (\d+) tokens/i.exec(
    message,
  );
  if (openai) return { actual: toInt(openai[2]), limit: toInt(openai[1]) };
  return {};
}

function toInt(s: string | undefined): number | undefined {
  if (!s) return undefined;
  const n = Number.parseInt(s.replaceAll(',', ''), 10);
  return Number.isFinite(n) ? n : undefined;
}

/** Parses a retry-after header: seconds, or an HTTP date. Returns milliseconds. */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
