/**
 * Async plumbing between code that produces items and code that waits for them, so no layer
 * hand-rolls wake-up promises or races:
 * - `Channel`: a queue producers push into and a consumer reads as an async iterable. It never
 *   blocks a producer (tool calls and progress must not wait for a slow reader); the producer
 *   ends it, fails it, or discards what is left.
 * - `merge`: several async iterables read as one, in arrival order. Each source is asked for its
 *   next item only after its previous one was taken, so a merge never reads ahead of its reader.
 */

type Waiter<T> = {
  owner: object;
  resolve: (result: IteratorResult<T, undefined>) => void;
  reject: (error: unknown) => void;
};

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

export class Channel<T> implements AsyncIterable<T, undefined> {
  private items: (T | undefined)[] = [];
  private head = 0;
  private waiters: Waiter<T>[] = [];
  private state: 'open' | 'ended' | 'failed' = 'open';
  private failure: unknown;

  /** Items pushed and not yet read. */
  get size(): number {
    return this.items.length - this.head;
  }

  /** Whether the producer has ended the channel (buffered items may still be read). */
  get closed(): boolean {
    return this.state !== 'open';
  }

  /** Queues an item, or hands it straight to a waiting reader. False (item dropped) once closed. */
  push(item: T): boolean {
    if (this.state !== 'open') return false;
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve({ done: false, value: item });
    else this.items.push(item);
    return true;
  }

  /** No more items: readers get what is buffered, then the end. */
  end(): void {
    if (this.state !== 'open') return;
    this.state = 'ended';
    this.settleWaiters();
  }

  /** Ends with an error: readers get what is buffered, then `error` is thrown to them. */
  fail(error: unknown): void {
    if (this.state !== 'open') return;
    this.state = 'failed';
    this.failure = error;
    this.settleWaiters();
  }

  /** Ends now and drops whatever was not read yet. */
  discard(): void {
    this.items = [];
    this.head = 0;
    if (this.state === 'open') this.state = 'ended';
    // A failure nobody read is dropped with the items: discarding means nobody wants the rest.
    if (this.state === 'failed') this.state = 'ended';
    this.settleWaiters();
  }

  /** The next item; waits while the channel is open and empty. */
  next(): Promise<IteratorResult<T, undefined>> {
    return this.take(this);
  }

  /**
   * A reader. Leaving a `for await` early (or a merge closing it) releases the reader's pending
   * read without ending the channel: the producer owns the end, and unread items stay queued.
   */
  [Symbol.asyncIterator](): AsyncIterator<T, undefined> {
    const reader: AsyncIterator<T, undefined> = {
      next: () => this.take(reader),
      return: async () => {
        this.release(reader);
        return DONE;
      },
    };
    return reader;
  }

  private take(owner: object): Promise<IteratorResult<T, undefined>> {
    if (this.head < this.items.length) {
      const value = this.items[this.head] as T;
      this.items[this.head] = undefined;
      this.head++;
      if (this.head === this.items.length) {
        this.items = [];
        this.head = 0;
      }
      return Promise.resolve({ done: false, value });
    }
    if (this.state === 'ended') return Promise.resolve(DONE);
    if (this.state === 'failed') return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiters.push({ owner, resolve, reject }));
  }

  private release(owner: object): void {
    const released = this.waiters.filter((waiter) => waiter.owner === owner);
    if (released.length === 0) return;
    this.waiters = this.waiters.filter((waiter) => waiter.owner !== owner);
    for (const waiter of released) waiter.resolve(DONE);
  }

  // Only called once the buffer is empty for every waiter: a waiter exists only while it is.
  private settleWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) {
      if (this.state === 'failed') waiter.reject(this.failure);
      else waiter.resolve(DONE);
    }
  }
}

type Arrival<T> =
  | { index: number; failed: false; result: IteratorResult<T> }
  | { index: number; failed: true; error: unknown };

export type MergeOptions = {
  /**
   * Stops the merge: items that had already arrived are still yielded, then the signal's reason
   * is thrown and every source is closed. An item a source was producing at that moment is lost
   * with the source, so end a source that must lose nothing instead of aborting it.
   */
  signal?: AbortSignal;
};

/**
 * Reads several async iterables as one, yielding items in the order they arrive. It ends when
 * every source has ended. A source that throws ends the merge with its error (after the items
 * that arrived before it) and closes the other sources; so does an abort, and so does the
 * reader leaving early (`return()`). The sources are started by the first `next()`; one read
 * may wait at a time.
 */
export function merge<T>(sources: Iterable<AsyncIterable<T>>, options: MergeOptions = {}): Merged<T> {
  return new Merge(sources, options.signal);
}

export interface Merged<T> extends AsyncIterableIterator<T, undefined> {
  /** Stops reading and closes every source that has not ended. */
  return(): Promise<IteratorResult<T, undefined>>;
}

// A hand-written iterator rather than an async generator over a Channel: every item of a model's
// stream passes through it, and each of those layers costs promise jobs per item. An arrival goes
// straight to a waiting reader, or waits in `ready` (at most one per source) for the next read.
class Merge<T> implements Merged<T> {
  private iterators: AsyncIterator<T>[] = [];
  /** Per source, made once: the callbacks of its pulls, so an item costs no new closures. */
  private handlers: { item: (result: IteratorResult<T>) => void; error: (error: unknown) => void }[] = [];
  private readonly ready: Arrival<T>[] = [];
  private reader: Waiter<T> | undefined;
  /** Sources that have not ended. */
  private readonly open = new Set<number>();
  /** The source whose item the reader holds: it is asked for the next one when the reader returns. */
  private taken: number | undefined;
  private aborted = false;
  private started = false;
  private finished = false;

  constructor(
    private readonly sources: Iterable<AsyncIterable<T>>,
    private readonly signal: AbortSignal | undefined,
  ) {}

  next(): Promise<IteratorResult<T, undefined>> {
    if (!this.started) {
      this.started = true;
      if (this.signal?.aborted) {
        this.finished = true;
        return Promise.reject(this.signal.reason);
      }
      this.start();
    } else if (this.taken !== undefined) {
      const index = this.taken;
      this.taken = undefined;
      if (!this.aborted && !this.finished) this.pull(index);
    }
    while (!this.finished) {
      const arrival = this.ready.shift();
      if (!arrival) break;
      let result: IteratorResult<T, undefined> | undefined;
      try {
        result = this.settle(arrival);
      } catch (error) {
        return Promise.reject(error);
      }
      if (result) return Promise.resolve(result);
    }
    if (this.finished) return Promise.resolve(DONE);
    if (this.aborted) return Promise.reject(this.abortNow());
    if (this.reader)
      return Promise.reject(new Error('merge: one read at a time; await the previous next().'));
    return new Promise((resolve, reject) => {
      this.reader = { owner: this, resolve, reject };
    });
  }

  async return(): Promise<IteratorResult<T, undefined>> {
    this.started = true;
    this.finish();
    return DONE;
  }

  [Symbol.asyncIterator](): Merged<T> {
    return this;
  }

  private start(): void {
    this.iterators = Array.from(this.sources, (source) => source[Symbol.asyncIterator]());
    this.handlers = this.iterators.map((_, index) => ({
      item: (result) => this.arrive({ index, failed: false, result }),
      error: (error) => this.arrive({ index, failed: true, error }),
    }));
    this.signal?.addEventListener('abort', this.onAbort, { once: true });
    this.iterators.forEach((_, index) => {
      this.open.add(index);
      this.pull(index);
    });
    if (this.open.size === 0) this.finish();
  }

  private pull(index: number): void {
    let next: Promise<IteratorResult<T>>;
    try {
      next = this.iterators[index]!.next();
    } catch (error) {
      next = Promise.reject(error);
    }
    const { item, error } = this.handlers[index]!;
    next.then(item, error);
  }

  private arrive(arrival: Arrival<T>): void {
    if (this.finished) return;
    const reader = this.reader;
    if (!reader) {
      this.ready.push(arrival);
      return;
    }
    // Detached first: settling may finish the merge, which would end a still-attached reader.
    this.reader = undefined;
    let result: IteratorResult<T, undefined> | undefined;
    try {
      result = this.settle(arrival);
    } catch (error) {
      reader.reject(error);
      return;
    }
    if (result) reader.resolve(result);
    else this.reader = reader;
  }

  /**
   * What an arrival means for the reader: the next result, undefined when it must wait on (a
   * source ended, others are open), or a throw of the source's error.
   */
  private settle(arrival: Arrival<T>): IteratorResult<T, undefined> | undefined {
    if (arrival.failed) {
      this.open.delete(arrival.index);
      this.finish();
      throw arrival.error;
    }
    if (arrival.result.done) {
      this.open.delete(arrival.index);
      if (this.open.size > 0) return undefined;
      this.finish();
      return DONE;
    }
    this.taken = arrival.index;
    return arrival.result;
  }

  private readonly onAbort = (): void => {
    this.aborted = true;
    const reader = this.reader;
    if (!reader) return;
    this.reader = undefined;
    reader.reject(this.abortNow());
  };

  private abortNow(): unknown {
    this.finish();
    return this.signal?.reason;
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.signal?.removeEventListener('abort', this.onAbort);
    this.ready.length = 0;
    for (const index of this.open) close(this.iterators[index]!);
    this.open.clear();
    const reader = this.reader;
    this.reader = undefined;
    reader?.resolve(DONE);
  }
}

/** Closes a source without waiting: a generator busy in an `await` closes when it next yields. */
function close(iterator: AsyncIterator<unknown>): void {
  try {
    void iterator.return?.()?.catch(() => {});
  } catch {
    // A source that cannot be closed has nothing left for us either way.
  }
}
