import { afterEach, describe, expect, it, vi } from 'vitest';
import { throttledSubscribe } from './throttled-subscribe';

/** A store with one listener at a time: `change()` tells it. */
function store() {
  let listener: (() => void) | undefined;
  return {
    subscribe: (next: () => void) => {
      listener = next;
      return () => {
        listener = undefined;
      };
    },
    change: () => listener?.(),
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('throttledSubscribe', () => {
  it('passes the first change at once and the last one of a burst after the interval', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const source = store();
    const seen = vi.fn();
    throttledSubscribe(source.subscribe, 50)(seen);
    source.change();
    expect(seen).toHaveBeenCalledTimes(1);
    source.change();
    source.change();
    expect(seen).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(50);
    expect(seen).toHaveBeenCalledTimes(2);
  });

  it('keeps passing changes when the wall clock is set back', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(new Date('2026-06-01T12:00:00Z'));
    const source = store();
    const seen = vi.fn();
    throttledSubscribe(source.subscribe, 50)(seen);
    source.change();
    // The machine's clock goes back a day (as it does here at times): the screen must not wait for it.
    vi.setSystemTime(new Date('2026-05-31T12:00:00Z'));
    source.change();
    vi.advanceTimersByTime(50);
    expect(seen).toHaveBeenCalledTimes(2);
  });
});
