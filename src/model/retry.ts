/**
 * Retries for any Provider: exponential backoff with full jitter, retry-after honoured, a separate
 * budget for 529 overloaded (so the query loop can switch to the fallback model early), and
 * `stream_reset` when a stream dies after it already produced events.
 */

import { AbortedError, abortableSleep, isAbortError, ModelError, OverloadedError } from './errors';
import type { ModelRequest, Provider, StreamEvent } from './types';

/** Time and randomness, injected so tests never really sleep. */
export type RetryClock = {
  /** Resolves after `ms`; rejects with AbortedError as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1). */
  random(): number;
};

export type RetryInfo = {
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  error: ModelError;
};

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
  /** A server asking for a longer wait than this is not waited for: the error is rethrown. */
  maxRetryAfterMs?: number;
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
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

export const realClock: RetryClock = {
  sleep: abortableSleep,
  random: Math.random,
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

type Budget = { retries: number; overloaded: number };

type Resolved = Required<Omit<RetryOptions, 'onRetry'>> & Pick<RetryOptions, 'onRetry'>;

function resolveOptions(options: RetryOptions): Resolved {
  return {
    ...DEFAULT_BACKOFF,
    maxRetries: DEFAULT_MAX_RETRIES,
    maxOverloadedRetries: DEFAULT_MAX_OVERLOADED_RETRIES,
    maxRetryAfterMs: DEFAULT_MAX_RETRY_AFTER_MS,
    clock: realClock,
    ...stripUndefined(options),
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Decides whether `error` is retried. Returns the delay, or undefined to rethrow. Counts the
 * attempt into `budget` only when it will be retried.
 */
function planRetry(error: unknown, budget: Budget, o: Resolved): number | undefined {
  if (!(error instanceof ModelError) || !error.retryable) return undefined;
  if (budget.retries >= o.maxRetries) return undefined;
  const overloaded = error instanceof OverloadedError;
  if (overloaded && budget.overloaded >= o.maxOverloadedRetries) return undefined;
  const retryAfterMs = 'retryAfterMs' in error ? (error.retryAfterMs as number | undefined) : undefined;
  if (retryAfterMs !== undefined && retryAfterMs > o.maxRetryAfterMs) return undefined;
  budget.retries++;
  if (overloaded) budget.overloaded++;
  const backoff = computeBackoffMs(budget.retries, o, () => o.clock.random());
  return Math.max(backoff, retryAfterMs ?? 0);
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

/** Wraps `provider` so that `stream()` and `countTokens()` retry transient failures. */
export function withRetry(provider: Provider, options: RetryOptions = {}): Provider {
  const o = resolveOptions(options);

  async function* stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    const budget: Budget = { retries: 0, overloaded: 0 };
    while (true) {
      if (signal?.aborted) throw new AbortedError();
      let yielded = false;
      try {
        for await (const event of provider.stream(request, signal)) {
          yielded = true;
          yield event;
        }
        return;
      } catch (error) {
        const err = abortedOr(error, signal);
        if (err instanceof AbortedError) throw err;
        const delayMs = planRetry(err, budget, o);
        if (delayMs === undefined) throw err;
        const modelError = err as ModelError;
        o.onRetry?.({ attempt: budget.retries, delayMs, error: modelError });
        // The consumer has partial content from this attempt: tell it to drop that before the
        // retry starts over. Before the first event nothing needs discarding, so stay silent.
        if (yielded) yield { type: 'stream_reset', attempt: budget.retries, reason: modelError.message };
        await wait(delayMs, signal, o);
      }
    }
  }

  const wrapped: Provider = { name: provider.name, stream };
  const countTokens = provider.countTokens?.bind(provider);
  if (countTokens) {
    wrapped.countTokens = async (request, signal) => {
      const budget: Budget = { retries: 0, overloaded: 0 };
      while (true) {
        if (signal?.aborted) throw new AbortedError();
        try {
          return await countTokens(request, signal);
        } catch (error) {
          const err = abortedOr(error, signal);
          if (err instanceof AbortedError) throw err;
          const delayMs = planRetry(err, budget, o);
          if (delayMs === undefined) throw err;
          o.onRetry?.({ attempt: budget.retries, delayMs, error: err as ModelError });
          await wait(delayMs, signal, o);
        }
      }
    };
  }
  return wrapped;
}
