/**
 * Retries for any Provider: exponential backoff with full jitter, retry-after honoured, a separate
 * budget for 529 overloaded (so the query loop can switch to the fallback model early), and
 * `stream_reset` when a stream dies after it already produced events.
 *
 * The wait is bounded: a request may go `totalMs` without progress (no event received), retries
 * and their waits included, before its error is reported. A retry that would start after that
 * bound is not made; an attempt still waiting for its first event when the bound passes is cut.
 * A response that has started streaming is never cut; its progress starts the bound afresh.
 * Every retry is announced with a `retry` event before its wait, so the user hears of it.
 */

import {
  AbortedError,
  abortableSleep,
  ConnectionError,
  isAbortError,
  ModelError,
  OverloadedError,
  RateLimitError,
  ServerError,
} from './errors';
import { formatDuration, timerDelay } from './http/deadline';
import type { ModelRequest, Provider, RetryEvent, StreamEvent } from './types';

/** Time and randomness, injected so tests never really sleep. */
export type RetryClock = {
  /** Resolves after `ms`; rejects with AbortedError as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1). */
  random(): number;
  /** The current time in ms; `Date.now` when absent (a fake clock that never advances is fine). */
  now?(): number;
};

export type RetryInfo = Omit<RetryEvent, 'type'>;

export type BackoffOptions = {
  baseDelayMs: number;
  factor: number;
  maxDelayMs: number;
};

export type RetryOptions = Partial<BackoffOptions> & {
  /** Retries of any retryable error, in total. */
  maxRetries?: number;
  /** Retries of 529 overloaded; past this the OverloadedError is thrown for the fallback model. */
  maxOverloadedRetries?: number;
  /** How long a request may go without progress, waits included, before its error is reported. */
  totalMs?: number;
  /** One attempt's first-byte wait, reported with a retry after a silent server. */
  firstByteMs?: number;
  clock?: RetryClock;
  onRetry?: (info: RetryInfo) => void;
};

export const DEFAULT_BACKOFF: Readonly<BackoffOptions> = {
  baseDelayMs: 500,
  factor: 2,
  maxDelayMs: 32_000,
};
export const DEFAULT_MAX_RETRIES = 8;
export const DEFAULT_MAX_OVERLOADED_RETRIES = 3;
export const DEFAULT_RETRY_TOTAL_MS = 300_000;

/** Where the bound comes from, for the messages that cite it. */
const TOTAL_SETTING = 'apiTimeouts.totalMs';

export const realClock: RetryClock = {
  sleep: abortableSleep,
  random: Math.random,
  now: Date.now,
};

/**
 * Full jitter (AWS architecture blog, "Exponential Backoff and Jitter"): a uniform draw from
 * [0, min(cap, base·factor^(attempt-1))). Full rather than equal jitter because many Yoke agents
 * (subagents, teammates) can hit the same rate limit at once and must not retry in lockstep.
 * `attempt` is 1 for the first retry.
 */
export function computeBackoffMs(
  attempt: number,
  opts: Partial<BackoffOptions> = {},
  random: () => number = Math.random,
): number {
  const { baseDelayMs, factor, maxDelayMs } = { ...DEFAULT_BACKOFF, ...opts };
  const ceiling = Math.min(maxDelayMs, baseDelayMs * factor ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

type Resolved = Required<Omit<RetryOptions, 'onRetry' | 'firstByteMs'>> &
  Pick<RetryOptions, 'onRetry' | 'firstByteMs'>;

function resolveOptions(options: RetryOptions): Resolved {
  return {
    ...DEFAULT_BACKOFF,
    maxRetries: DEFAULT_MAX_RETRIES,
    maxOverloadedRetries: DEFAULT_MAX_OVERLOADED_RETRIES,
    totalMs: DEFAULT_RETRY_TOTAL_MS,
    clock: realClock,
    ...stripUndefined(options),
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** One request's retry state: the budgets spent and the start of the current wait. */
class RetryState {
  retries = 0;
  overloaded = 0;
  windowStart: number;

  constructor(private readonly o: Resolved) {
    this.windowStart = this.now();
  }

  now(): number {
    return this.o.clock.now?.() ?? Date.now();
  }

  get attempts(): number {
    return this.retries + 1;
  }

  /** Time left before the bound, from now. */
  remaining(): number {
    return this.windowStart + this.o.totalMs - this.now();
  }

  /** A response made progress: the bound counts from here. */
  progressed(): void {
    this.windowStart = this.now();
  }

  /**
   * Decides whether `error` is retried: the retry to announce, or the error to throw (with advice
   * on why no retry is made). Counts the attempt only when it will be retried.
   */
  plan(error: unknown): { retry: RetryInfo } | { fail: unknown } {
    const o = this.o;
    if (!(error instanceof ModelError) || !error.retryable) return { fail: error };
    const tried = `after ${this.attempts} attempt${this.attempts === 1 ? '' : 's'}`;
    if (this.retries >= o.maxRetries)
      return { fail: error.withAdvice(`Gave up ${tried}.${afterRetries(error)}`) };
    const overloaded = error instanceof OverloadedError;
    if (overloaded && this.overloaded >= o.maxOverloadedRetries) {
      return { fail: error.withAdvice(`Still overloaded ${tried}.`) };
    }
    const retryAfterMs = 'retryAfterMs' in error ? (error.retryAfterMs as number | undefined) : undefined;
    if (retryAfterMs !== undefined && retryAfterMs > o.totalMs) {
      return {
        fail: error.withAdvice(
          `The API asks to wait ${formatDuration(retryAfterMs)} before retrying, longer than Yoke waits ` +
            `(${formatDuration(o.totalMs)}, ${TOTAL_SETTING}); try again later.`,
        ),
      };
    }
    const backoff = computeBackoffMs(this.retries + 1, o, () => o.clock.random());
    const delayMs = Math.max(backoff, retryAfterMs ?? 0);
    if (delayMs >= this.remaining()) {
      return {
        fail: error.withAdvice(
          `Gave up ${tried} over ${formatDuration(this.now() - this.windowStart)}: the next try would pass ` +
            `the ${formatDuration(o.totalMs)} limit (${TOTAL_SETTING}).`,
        ),
      };
    }
    this.retries++;
    if (overloaded) this.overloaded++;
    const info: RetryInfo = {
      attempt: overloaded ? this.overloaded : this.retries,
      maxRetries: overloaded ? o.maxOverloadedRetries : o.maxRetries,
      delayMs,
      error,
    };
    const deadline = error instanceof ConnectionError ? error.deadline : undefined;
    if (deadline?.phase === 'first_byte') {
      const nextWait = Math.min(o.firstByteMs ?? deadline.waitedMs, this.remaining() - delayMs);
      info.noResponse = { waitedMs: deadline.waitedMs, retryWaitMs: Math.max(0, Math.round(nextWait)) };
    }
    return { retry: info };
  }

  /** The error for an attempt the bound cut while it still waited for its first event. */
  cutOff(last: ModelError | undefined): ConnectionError {
    const error = new ConnectionError(
      `No answer from the model API within ${formatDuration(this.o.totalMs)} (${TOTAL_SETTING}), ` +
        `${this.attempts} attempt${this.attempts === 1 ? '' : 's'}.`,
      false,
      { retryable: false, ...(last ? { cause: last } : {}) },
    );
    return last ? error.withAdvice(`Before that: ${last.message}`) : error;
  }
}

/** What the user can do once every retry failed the same way; empty when there is nothing to add. */
function afterRetries(error: ModelError): string {
  if (error instanceof RateLimitError) {
    return " Try again in a while; if it keeps happening, the limit is your API plan's (or the server's).";
  }
  if (error instanceof ServerError) return ' The API is failing on its side; try again later.';
  const deadline = error instanceof ConnectionError ? error.deadline : undefined;
  if (deadline?.phase === 'first_byte') {
    return ' If the model is slow to start (a local model loading), raise apiTimeouts.firstByteMs or API_TIMEOUT_MS.';
  }
  return '';
}

/**
 * The signal one attempt runs under: the caller's, plus the bound's cut-off while no event has
 * arrived. Real timers on purpose: a test clock's sleep returns at once and would cut every attempt.
 */
class AttemptSignal {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  cut = false;

  constructor(
    private readonly outer: AbortSignal | undefined,
    remainingMs: number,
  ) {
    if (outer?.aborted) this.controller.abort();
    outer?.addEventListener('abort', this.forward, { once: true });
    this.timer = setTimeout(() => {
      this.cut = true;
      this.controller.abort();
    }, timerDelay(remainingMs));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The first event arrived: from now on only the caller (and the transport) end the attempt. */
  progressed(): void {
    clearTimeout(this.timer);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.forward);
  }

  private readonly forward = () => this.controller.abort();
}

function abortedOr(error: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted || isAbortError(error)) {
    return error instanceof AbortedError ? error : new AbortedError();
  }
  return error;
}

async function wait(delayMs: number, signal: AbortSignal | undefined, o: Resolved): Promise<void> {
  try {
    await o.clock.sleep(delayMs, signal);
  } catch (error) {
    throw abortedOr(error, signal);
  }
  // A clock may resolve even though the signal fired meanwhile; never start a request then.
  if (signal?.aborted) throw new AbortedError();
}

/** A provider wrapped by `withRetry`: it can hand out the same provider under other retry options. */
export type RetryingProvider = Provider & {
  /** The same provider, its transport and bounds, with some retry options changed. */
  withRetryOptions(overrides: RetryOptions): RetryingProvider;
};

export function isRetrying(provider: Provider): provider is RetryingProvider {
  return typeof (provider as Partial<RetryingProvider>).withRetryOptions === 'function';
}

/** Wraps `provider` so that `stream()` and `countTokens()` retry transient failures. */
export function withRetry(provider: Provider, options: RetryOptions = {}): RetryingProvider {
  const o = resolveOptions(options);

  async function* stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    const state = new RetryState(o);
    let last: ModelError | undefined;
    while (true) {
      if (signal?.aborted) throw new AbortedError();
      const attempt = new AttemptSignal(signal, state.remaining());
      let yielded = false;
      try {
        for await (const event of provider.stream(request, attempt.signal)) {
          if (!yielded) {
            yielded = true;
            attempt.progressed();
          }
          yield event;
        }
        return;
      } catch (error) {
        if (attempt.cut && !signal?.aborted) throw state.cutOff(last);
        const err = abortedOr(error, signal);
        if (err instanceof AbortedError) throw err;
        if (yielded) state.progressed();
        const plan = state.plan(err);
        if ('fail' in plan) throw plan.fail;
        const info = plan.retry;
        last = info.error;
        o.onRetry?.(info);
        // The consumer has partial content from this attempt: tell it to drop that before the
        // retry starts over. Before the first event nothing needs discarding.
        if (yielded) yield { type: 'stream_reset', attempt: state.retries, reason: info.error.message };
        yield { type: 'retry', ...info };
        await wait(info.delayMs, signal, o);
      } finally {
        attempt.dispose();
      }
    }
  }

  const wrapped: RetryingProvider = {
    name: provider.name,
    stream,
    withRetryOptions: (overrides) => withRetry(provider, { ...options, ...overrides }),
  };
  if (provider.preconnect) wrapped.preconnect = () => provider.preconnect?.();
  const countTokens = provider.countTokens?.bind(provider);
  if (countTokens) {
    wrapped.countTokens = async (request, signal) => {
      const state = new RetryState(o);
      while (true) {
        if (signal?.aborted) throw new AbortedError();
        try {
          return await countTokens(request, signal);
        } catch (error) {
          const err = abortedOr(error, signal);
          if (err instanceof AbortedError) throw err;
          const plan = state.plan(err);
          if ('fail' in plan) throw plan.fail;
          o.onRetry?.(plan.retry);
          await wait(plan.retry.delayMs, signal, o);
        }
      }
    };
  }
  return wrapped;
}
