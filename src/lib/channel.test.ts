import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Channel, merge } from './channel';

// Lets every already-runnable continuation run (no timers involved).
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) items.push(item);
  return items;
}

/**
 * A generator source that records how far it was pulled and whether it was closed. `paced` ones
 * wait a macrotask before each item, so an endless one cannot starve the others.
 */
function counted(name: string, count = Number.POSITIVE_INFINITY, paced = false) {
  const state = { produced: 0, closed: false };
  async function* source(): AsyncGenerator<string> {
    try {
      while (state.produced < count) {
        if (paced) await settle();
        state.produced++;
        yield `${name}${state.produced}`;
      }
    } finally {
      state.closed = true;
    }
  }
  return { state, source: source() };
}

describe('Channel', () => {
  it('hands items out in push order, whether pushed before or while a reader waits', async () => {
    const channel = new Channel<number>();
    channel.push(1);
    channel.push(2);
    expect(channel.size).toBe(2);
    const reading = collect(channel);
    await settle();
    channel.push(3);
    channel.push(4);
    channel.end();
    expect(await reading).toEqual([1, 2, 3, 4]);
    expect(channel.size).toBe(0);
  });

  it('serves waiting reads first come, first served', async () => {
    const channel = new Channel<string>();
    const first = channel.next();
    const second = channel.next();
    channel.push('a');
    channel.push('b');
    expect(await first).toEqual({ done: false, value: 'a' });
    expect(await second).toEqual({ done: false, value: 'b' });
  });

  it('after end: buffered items first, then done for every read, and pushes are refused', async () => {
    const channel = new Channel<string>();
    channel.push('kept');
    channel.end();
    expect(channel.closed).toBe(true);
    expect(channel.push('late')).toBe(false);
    expect(await channel.next()).toEqual({ done: false, value: 'kept' });
    expect(await channel.next()).toEqual({ done: true, value: undefined });
    expect(await channel.next()).toEqual({ done: true, value: undefined });
  });

  it('ends a waiting reader when the producer ends', async () => {
    const channel = new Channel<string>();
    const waiting = channel.next();
    channel.end();
    expect(await waiting).toEqual({ done: true, value: undefined });
  });

  it('after fail: buffered items first, then the error, to a waiting reader too', async () => {
    const channel = new Channel<string>();
    channel.push('before');
    const boom = new Error('producer broke');
    channel.fail(boom);
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const item of channel) seen.push(item);
      })(),
    ).rejects.toBe(boom);
    expect(seen).toEqual(['before']);

    const other = new Channel<string>();
    const waiting = other.next();
    other.fail(boom);
    await expect(waiting).rejects.toBe(boom);
    // The first end wins.
    other.end();
    await expect(other.next()).rejects.toBe(boom);
  });

  it('discard drops unread items and ends waiting readers', async () => {
    const channel = new Channel<string>();
    channel.push('dropped');
    channel.discard();
    expect(await channel.next()).toEqual({ done: true, value: undefined });

    const other = new Channel<string>();
    const waiting = other.next();
    other.discard();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(other.push('late')).toBe(false);
  });

  it('leaving a for-await early keeps the channel open and the rest for the next reader', async () => {
    const channel = new Channel<number>();
    for (const n of [1, 2, 3]) channel.push(n);
    for await (const n of channel) {
      expect(n).toBe(1);
      break;
    }
    expect(channel.closed).toBe(false);
    channel.push(4);
    channel.end();
    expect(await collect(channel)).toEqual([2, 3, 4]);
  });

  it('closing a reader releases its pending read without taking the next item', async () => {
    const channel = new Channel<string>();
    const reader = channel[Symbol.asyncIterator]();
    const pending = reader.next();
    await reader.return?.();
    expect(await pending).toEqual({ done: true, value: undefined });
    channel.push('not lost');
    expect(await channel.next()).toEqual({ done: false, value: 'not lost' });
  });

  it('loses and duplicates nothing with many producers pushing at different paces', async () => {
    const channel = new Channel<string>();
    const producers = Array.from({ length: 5 }, async (_, p) => {
      for (let i = 0; i < 200; i++) {
        channel.push(`${p}:${i}`);
        // Producers interleave differently: some every microtask, some every macrotask.
        if ((i + p) % (p + 1) === 0) await settle();
        else await Promise.resolve();
      }
    });
    const reading = collect(channel);
    await Promise.all(producers);
    channel.end();
    const items = await reading;
    expect(items).toHaveLength(1000);
    expect(new Set(items).size).toBe(1000);
    for (let p = 0; p < 5; p++) {
      const own = items.filter((item) => item.startsWith(`${p}:`));
      expect(own).toEqual(Array.from({ length: 200 }, (_, i) => `${p}:${i}`));
    }
  });
});

describe('merge', () => {
  it('asks a lone source for its next item only once the last one was taken', async () => {
    const only = counted('s');
    const merged = merge([only.source]);
    for (let taken = 1; taken <= 3; taken++) {
      expect(await merged.next()).toEqual({ done: false, value: `s${taken}` });
      await settle();
      expect(only.state.produced).toBe(taken);
    }
    await merged.return();
    expect(only.state.closed).toBe(true);
  });

  it('yields the items of several sources in the order they arrive, and ends when all end', async () => {
    const a = new Channel<string>();
    const b = new Channel<string>();
    const merged = merge([a, b]);
    const reading = collect(merged);
    a.push('a1');
    await settle();
    b.push('b1');
    await settle();
    a.push('a2');
    a.end();
    await settle();
    b.push('b2');
    await settle();
    b.end();
    expect(await reading).toEqual(['a1', 'b1', 'a2', 'b2']);
  });

  it('loses and duplicates nothing, and keeps each source in its own order', async () => {
    const sources = [3, 1, 2].map(async function* (pace, s) {
      for (let i = 0; i < 100; i++) {
        if (i % pace === 0) await settle();
        yield `${s}:${i}`;
      }
    });
    const items = await collect(merge(sources));
    expect(items).toHaveLength(300);
    expect(new Set(items).size).toBe(300);
    for (let s = 0; s < 3; s++) {
      expect(items.filter((item) => item.startsWith(`${s}:`))).toEqual(
        Array.from({ length: 100 }, (_, i) => `${s}:${i}`),
      );
    }
  });

  it('never reads a source ahead of its reader, and closes the sources when the reader leaves', async () => {
    const fast = counted('f');
    const other = counted('o');
    const taken: string[] = [];
    for await (const item of merge([fast.source, other.source])) {
      taken.push(item);
      if (taken.length === 4) break;
    }
    // Each source is asked for one item at a time: at most one beyond what was taken from it.
    for (const [name, source] of [
      ['f', fast],
      ['o', other],
    ] as const) {
      const takenFrom = taken.filter((item) => item.startsWith(name)).length;
      expect(source.state.produced - takenFrom).toBeGreaterThanOrEqual(0);
      expect(source.state.produced - takenFrom).toBeLessThanOrEqual(1);
    }
    await settle();
    expect(fast.state.closed).toBe(true);
    expect(other.state.closed).toBe(true);
  });

  it('ends with the first error after the items that came before it, closing the other sources', async () => {
    const boom = new Error('source broke');
    async function* failing() {
      yield 'x1';
      await settle();
      throw boom;
    }
    const endless = counted('e', Number.POSITIVE_INFINITY, true);
    const channel = new Channel<string>();
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const item of merge([failing(), endless.source, channel])) seen.push(item);
      })(),
    ).rejects.toBe(boom);
    expect(seen).toContain('x1');
    await settle();
    expect(endless.state.closed).toBe(true);
    // The channel's pending read was released, not ended: its producer still owns it.
    expect(channel.closed).toBe(false);
    channel.push('kept');
    expect(await channel.next()).toEqual({ done: false, value: 'kept' });
  });

  it('stops on abort with the signal reason, closes the sources and removes its listener', async () => {
    const controller = new AbortController();
    const quiet = new Channel<string>();
    const endless = counted('e', 1);
    const merged = merge([quiet, endless.source], { signal: controller.signal });
    expect(await merged.next()).toEqual({ done: false, value: 'e1' });
    const waiting = merged.next();
    await settle();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    const reason = new Error('stop now');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    await settle();
    expect(endless.state.closed).toBe(true);
    quiet.push('for a later reader');
    expect(await quiet.next()).toEqual({ done: false, value: 'for a later reader' });
  });

  it('on abort still yields what had already arrived, then throws, and reads nothing more', async () => {
    const controller = new AbortController();
    const a = new Channel<string>();
    const b = new Channel<string>();
    const merged = merge([a, b], { signal: controller.signal });
    const first = merged.next();
    a.push('a1');
    expect(await first).toEqual({ done: false, value: 'a1' });
    a.push('a2');
    b.push('b1');
    await settle();
    controller.abort(new Error('stop'));
    const rest: string[] = [];
    await expect(
      (async () => {
        for await (const item of merged) rest.push(item);
      })(),
    ).rejects.toThrow('stop');
    // b1 had arrived; a2 had not been asked for, since the reader still held a1.
    expect(rest).toEqual(['b1']);
    expect(await a.next()).toEqual({ done: false, value: 'a2' });
  });

  it('does not start the sources when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    const source = counted('s');
    await expect(collect(merge([source.source], { signal: controller.signal }))).rejects.toThrow('too late');
    expect(source.state.produced).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('leaves no abort listener behind when it ends, fails or is left early', async () => {
    const signal = new AbortController().signal;
    expect(await collect(merge([counted('a', 2).source], { signal }))).toEqual(['a1', 'a2']);
    async function* broken() {
      yield* [];
      throw new Error('broken');
    }
    await expect(collect(merge([broken()], { signal }))).rejects.toThrow('broken');
    for await (const _ of merge([counted('b').source], { signal })) break;
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('refuses a second read while one waits, and still serves the first', async () => {
    const source = new Channel<string>();
    const merged = merge([source]);
    const first = merged.next();
    await expect(merged.next()).rejects.toThrow('one read at a time');
    source.push('for the first');
    expect(await first).toEqual({ done: false, value: 'for the first' });
  });

  it('ends at once with no sources', async () => {
    expect(await collect(merge<string>([]))).toEqual([]);
  });
});
