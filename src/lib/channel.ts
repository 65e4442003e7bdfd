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
 * reader leaving early.
 */
export async function* merge<T>(
  sources: Iterable<AsyncIterable<T>>,
  options: MergeOptions = {},
): AsyncGenerator<T, void, undefined> {
  const { signal } = options;
  signal?.throwIfAborted();
  const iterators = Array.from(sources, (source) => source[Symbol.asyncIterator]());
  const arrivals = new Channel<Arrival<T>>();
  const open = new Set<number>();
  const pull = (index: number): void => {
    let next: Promise<IteratorResult<T>>;
    try {
      next = iterators[index]!.next();
    } catch (error) {
      next = Promise.reject(error);
    }
    next.then(
      (result) => arrivals.push({ index, failed: false, result }),
      (error: unknown) => arrivals.push({ index, failed: true, error }),
    );
  };
  const onAbort = (): void => arrivals.fail(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    iterators.forEach((_, index) => {
      open.add(index);
      pull(index);
    });
    while (open.size > 0) {
      const step = await arrivals.next();
      if (step.done) return;
      const arrival = step.value;
      if (arrival.failed) {
        open.delete(arrival.index);
        throw arrival.error;
      }
      if (arrival.result.done) {
        open.delete(arrival.index);
        continue;
      }
      yield arrival.result.value;
      if (!arrivals.closed) pull(arrival.index);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    arrivals.discard();
    for (const index of open) close(iterators[index]!);
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
