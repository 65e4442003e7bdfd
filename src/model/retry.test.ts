import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  AuthError,
  ConnectionError,
  InvalidRequestError,
  MediaError,
  OverloadedError,
  PromptTooLongError,
  RateLimitError,
  ServerError,
} from './errors';
import { TransportDeadlineError } from './http/deadline';
import { computeBackoffMs, type RetryClock, type RetryInfo, realClock, withRetry } from './retry';
import { emptyUsage, type ModelRequest, type Provider, type StreamEvent } from './types';

const request: ModelRequest = { model: 'claude-sonnet-4-5', system: [], messages: [], maxTokens: 100 };

const start: StreamEvent = { type: 'message_start', messageId: 'm1', model: 'x', usage: emptyUsage() };
const text: StreamEvent = { type: 'text_delta', index: 0, text: 'hi' };
const stop: StreamEvent = { type: 'message_stop', stopReason: 'end_turn', usage: emptyUsage() };

/** One scripted attempt: the events it yields, then the error it throws (if any). */
type Attempt = { events?: StreamEvent[]; error?: Error };

async function* play(attempt: Attempt): AsyncGenerator<StreamEvent> {
  for (const e of attempt.events ?? []) yield e;
  if (attempt.error) throw attempt.error;
}

function scripted(attempts: Attempt[]): Provider & { calls: number } {
  const p = {
    name: 'fake' as const,
    calls: 0,
    stream(): AsyncGenerator<StreamEvent> {
      const a = attempts[p.calls++];
      if (!a) throw new Error('no more scripted attempts');
      return play(a);
    },
  };
  return p;
}

const ok: Attempt = { events: [start, text, stop] };

/**
 * Records requested sleeps and advances its own time by them; never waits. `random` returns a
 * fixed value; `elapse` moves time on as if a request had taken that long.
 */
function fakeClock(random = 0.5): RetryClock & { sleeps: number[]; elapse(ms: number): void } {
  const sleeps: number[] = [];
  let time = 1_000_000;
  return {
    sleeps,
    random: () => random,
    now: () => time,
    elapse: (ms) => {
      time += ms;
    },
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw new AbortedError();
      sleeps.push(ms);
      time += ms;
    },
  };
}

async function collect(iter: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of iter) out.push(e);
  return out;
}

/** The events without the retry announcements (for tests about what the consumer's content is). */
const content = (events: StreamEvent[]) => events.filter((e) => e.type !== 'retry');
const retries = (events: StreamEvent[]) =>
  events.flatMap((e) => (e.type === 'retry' ? [[e.attempt, e.maxRetries, e.delayMs, e.error.name]] : []));

describe('computeBackoffMs', () => {
  it('grows exponentially from 500 ms and caps at 32 s', () => {
    const max = () => 0.999999;
    expect(computeBackoffMs(1, {}, max)).toBe(499);
    expect(computeBackoffMs(2, {}, max)).toBe(999);
    expect(computeBackoffMs(4, {}, max)).toBe(3999);
    expect(computeBackoffMs(7, {}, max)).toBe(31_999);
    expect(computeBackoffMs(20, {}, max)).toBe(31_999);
  });

  it('uses full jitter: anywhere from 0 up to the ceiling', () => {
    expect(computeBackoffMs(3, {}, () => 0)).toBe(0);
    for (let i = 0; i < 200; i++) {
      const d = computeBackoffMs(3, {}, Math.random);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(2000);
    }
  });

  it('honours custom options', () => {
    expect(computeBackoffMs(3, { baseDelayMs: 100, factor: 3, maxDelayMs: 500 }, () => 0.5)).toBe(250);
  });
});

describe('withRetry', () => {
  it('retries errors thrown before any event, announcing each retry before its wait', async () => {
    const p = scripted([{ error: new ServerError('500') }, { error: new ConnectionError('refused') }, ok]);
    const clock = fakeClock();
    const infos: RetryInfo[] = [];
    const events = await collect(withRetry(p, { clock, onRetry: (i) => infos.push(i) }).stream(request));
    expect(content(events)).toEqual([start, text, stop]);
    expect(retries(events)).toEqual([
      [1, 8, 250, 'ServerError'],
      [2, 8, 500, 'ConnectionError'],
    ]);
    expect(p.calls).toBe(3);
    expect(clock.sleeps).toEqual([250, 500]);
    expect(infos.map((i) => [i.attempt, i.delayMs, i.error.name])).toEqual([
      [1, 250, 'ServerError'],
      [2, 500, 'ConnectionError'],
    ]);
  });

  it('gives up after maxRetries and rethrows the last error', async () => {
    const err = new ServerError('still down');
    const p = scripted(Array.from({ length: 20 }, () => ({ error: err })));
    const clock = fakeClock();
    await expect(collect(withRetry(p, { clock }).stream(request))).rejects.toBe(err);
    expect(p.calls).toBe(9);
    expect(clock.sleeps).toHaveLength(8);
    const p2 = scripted(Array.from({ length: 20 }, () => ({ error: err })));
    await expect(collect(withRetry(p2, { clock, maxRetries: 2 }).stream(request))).rejects.toBe(err);
    expect(p2.calls).toBe(3);
  });

  it('waits at least retry-after', async () => {
    const p = scripted([{ error: new RateLimitError('429', 7_000) }, ok]);
    const clock = fakeClock(0.5);
    await collect(withRetry(p, { clock }).stream(request));
    expect(clock.sleeps).toEqual([7_000]);
  });

  it('keeps the backoff when it is longer than retry-after', async () => {
    const p = scripted([{ error: new RateLimitError('429', 10) }, ok]);
    const clock = fakeClock(0.9);
    await collect(withRetry(p, { clock }).stream(request));
    expect(clock.sleeps).toEqual([450]);
  });

  it('retries overloaded only up to its own max, then throws OverloadedError', async () => {
    const p = scripted(Array.from({ length: 10 }, () => ({ error: new OverloadedError('529') })));
    const clock = fakeClock();
    const run = collect(withRetry(p, { clock }).stream(request));
    await expect(run).rejects.toBeInstanceOf(OverloadedError);
    expect(p.calls).toBe(4);
    expect(clock.sleeps).toHaveLength(3);
  });

  it('counts overloaded separately from other retryable errors', async () => {
    const p = scripted([
      { error: new OverloadedError('529') },
      { error: new ServerError('500') },
      { error: new OverloadedError('529') },
      ok,
    ]);
    const events = await collect(
      withRetry(p, { clock: fakeClock(), maxOverloadedRetries: 2 }).stream(request),
    );
    expect(content(events)).toEqual([start, text, stop]);
    // Each error is counted against its own budget.
    expect(retries(events)).toEqual([
      [1, 2, 250, 'OverloadedError'],
      [2, 8, 500, 'ServerError'],
      [2, 2, 1000, 'OverloadedError'],
    ]);
    const p2 = scripted([
      { error: new OverloadedError('529') },
      { error: new ServerError('500') },
      { error: new OverloadedError('529') },
      ok,
    ]);
    await expect(
      collect(withRetry(p2, { clock: fakeClock(), maxOverloadedRetries: 1 }).stream(request)),
    ).rejects.toBeInstanceOf(OverloadedError);
    expect(p2.calls).toBe(3);
  });

  it('yields stream_reset after a mid-stream drop and restarts from scratch', async () => {
    const p = scripted([{ events: [start, text], error: new ConnectionError('socket hang up', true) }, ok]);
    const events = await collect(withRetry(p, { clock: fakeClock() }).stream(request));
    expect(content(events)).toEqual([
      start,
      text,
      { type: 'stream_reset', attempt: 1, reason: 'socket hang up' },
      start,
      text,
      stop,
    ]);
    expect(events.findIndex((e) => e.type === 'retry')).toBe(3);
  });

  it('says why it gave up: attempts used', async () => {
    const p = scripted(Array.from({ length: 5 }, () => ({ error: new ServerError('down') })));
    const run = collect(withRetry(p, { clock: fakeClock(), maxRetries: 2 }).stream(request));
    await expect(run).rejects.toMatchObject({
      advice: 'Gave up after 3 attempts. The API is failing on its side; try again later.',
    });
  });

  it('after a rate limit that outlasts the retries, says where the limit comes from', async () => {
    const limited = () => ({ error: new RateLimitError('Rate limited', undefined, { status: 429 }) });
    const p = scripted(Array.from({ length: 3 }, limited));
    const run = collect(withRetry(p, { clock: fakeClock(), maxRetries: 1 }).stream(request));
    await expect(run).rejects.toMatchObject({
      advice:
        "Gave up after 2 attempts. Try again in a while; if it keeps happening, the limit is your API plan's (or the server's).",
    });
  });

  it('fails at once, saying so, when retry-after is beyond the total wait', async () => {
    const err = new RateLimitError('Rate limited', 600_000, { status: 429 });
    const p = scripted([{ error: err }, ok]);
    const clock = fakeClock();
    await expect(collect(withRetry(p, { clock, totalMs: 300_000 }).stream(request))).rejects.toBe(err);
    expect(p.calls).toBe(1);
    expect(clock.sleeps).toEqual([]);
    expect(err.describe()).toBe(
      'Rate limited (HTTP 429) — The API asks to wait 10 min before retrying, longer than Yoke waits ' +
        '(5 min, apiTimeouts.totalMs); try again later.',
    );
  });

  it('makes no retry that would start after the total wait', async () => {
    const clock = fakeClock(0.999);
    const p = {
      name: 'fake' as const,
      calls: 0,
      stream(): AsyncGenerator<StreamEvent> {
        p.calls++;
        clock.elapse(2_500);
        return play({ error: new ConnectionError('reset') });
      },
    };
    const run = collect(withRetry(p, { clock, totalMs: 10_000 }).stream(request));
    await expect(run).rejects.toMatchObject({
      advice:
        'Gave up after 3 attempts over 9 s: the next try would pass the 10 s limit (apiTimeouts.totalMs).',
    });
    expect(p.calls).toBe(3);
  });

  it('starts the total wait afresh after a response made progress', async () => {
    const clock = fakeClock(0);
    let calls = 0;
    const p: Provider = {
      name: 'fake',
      async *stream() {
        calls++;
        if (calls === 1) {
          yield start;
          clock.elapse(50_000);
          throw new ConnectionError('dropped', true);
        }
        clock.elapse(8_000);
        if (calls === 2) throw new ConnectionError('reset');
        yield* [start, text, stop];
      },
    };
    const events = await collect(withRetry(p, { clock, totalMs: 10_000 }).stream(request));
    expect(content(events).at(-1)).toEqual(stop);
    expect(calls).toBe(3);
  });

  it('reports how long a silent server was waited for, and how long the retry will wait', async () => {
    const deadline = new TransportDeadlineError('first_byte', 120_000);
    const silent = new ConnectionError('No answer', false, { cause: deadline });
    const clock = fakeClock(0);
    const p = scripted([{ error: silent }, ok]);
    clock.elapse(0);
    const events = await collect(
      withRetry(p, { clock, totalMs: 300_000, firstByteMs: 120_000 }).stream(request),
    );
    const retry = events.find((e) => e.type === 'retry');
    expect(retry).toMatchObject({ attempt: 1, noResponse: { waitedMs: 120_000, retryWaitMs: 120_000 } });
  });

  it('cuts an attempt still waiting for its first event when the total wait runs out', async () => {
    const p: Provider = {
      name: 'fake',
      // Answers nothing until aborted, like a server that accepted the request and went silent.
      stream: (_request, signal) =>
        (async function* () {
          await new Promise((_resolve, reject) =>
            signal?.addEventListener('abort', () => reject(new AbortedError()), { once: true }),
          );
          yield start;
        })(),
    };
    const run = collect(withRetry(p, { clock: fakeClock(), totalMs: 20 }).stream(request));
    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).retryable).toBe(false);
    expect((error as Error).message).toBe(
      'No answer from the model API within 20 ms (apiTimeouts.totalMs), 1 attempt.',
    );
  });

  it('never cuts a response that has started streaming', async () => {
    const p: Provider = {
      name: 'fake',
      async *stream() {
        yield start;
        // Longer than the total wait: a streaming response is not bounded by it.
        await new Promise((resolve) => setTimeout(resolve, 40));
        yield* [text, stop];
      },
    };
    const events = await collect(withRetry(p, { clock: fakeClock(), totalMs: 10 }).stream(request));
    expect(events).toEqual([start, text, stop]);
  });

  it.each([
    ['auth', new AuthError('bad key', { status: 401 })],
    ['invalid request', new InvalidRequestError('bad', { status: 400 })],
    ['prompt too long', new PromptTooLongError('too long', 210_000, 200_000)],
    ['media', new MediaError('image too large')],
    ['a plain bug', new TypeError('x is undefined')],
  ])('rethrows %s immediately', async (_name, err) => {
    const p = scripted([{ error: err }, ok]);
    const clock = fakeClock();
    await expect(collect(withRetry(p, { clock }).stream(request))).rejects.toBe(err);
    expect(p.calls).toBe(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('does not reset on a non-retryable error after events', async () => {
    const err = new InvalidRequestError('bad');
    const p = scripted([{ events: [start], error: err }, ok]);
    const seen: StreamEvent[] = [];
    await expect(
      (async () => {
        for await (const e of withRetry(p, { clock: fakeClock() }).stream(request)) seen.push(e);
      })(),
    ).rejects.toBe(err);
    expect(seen).toEqual([start]);
  });

  it('stops waiting at once when aborted during backoff, with the real clock', async () => {
    const p = scripted([{ error: new ServerError('500') }, ok]);
    const controller = new AbortController();
    const began = Date.now();
    const run = collect(
      withRetry(p, {
        clock: { sleep: realClock.sleep, random: () => 0.999 },
        baseDelayMs: 60_000,
        maxDelayMs: 60_000,
        onRetry: () => queueMicrotask(() => controller.abort()),
      }).stream(request, controller.signal),
    );
    await expect(run).rejects.toBeInstanceOf(AbortedError);
    expect(Date.now() - began).toBeLessThan(5_000);
    expect(p.calls).toBe(1);
  });

  it('throws AbortedError without calling the provider when already aborted', async () => {
    const p = scripted([ok]);
    const controller = new AbortController();
    controller.abort();
    await expect(
      collect(withRetry(p, { clock: fakeClock() }).stream(request, controller.signal)),
    ).rejects.toBeInstanceOf(AbortedError);
    expect(p.calls).toBe(0);
  });

  it('turns a provider abort into AbortedError instead of retrying', async () => {
    const abortErr = Object.assign(new Error('aborted'), { name: 'AbortError' });
    const p = scripted([{ error: abortErr }, ok]);
    const wrapped = withRetry(p, { clock: fakeClock() });
    const iter = wrapped.stream(request)[Symbol.asyncIterator]();
    await expect(iter.next()).rejects.toBeInstanceOf(AbortedError);
    expect(p.calls).toBe(1);
  });

  it('retries countTokens too and keeps the provider name', async () => {
    let calls = 0;
    const p: Provider = {
      name: 'anthropic',
      stream: scripted([]).stream,
      countTokens: async () => {
        calls++;
        if (calls < 3) throw new RateLimitError('429', 1_000);
        return 42;
      },
    };
    const clock = fakeClock();
    const wrapped = withRetry(p, { clock });
    expect(wrapped.name).toBe('anthropic');
    await expect(wrapped.countTokens?.(request)).resolves.toBe(42);
    expect(clock.sleeps).toEqual([1_000, 1_000]);
  });
});
