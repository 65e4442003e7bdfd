/**
 * State that a key handler reads at once and that renders at once.
 *
 * Read at once: set() updates the value immediately. With useState, keys that arrive in one read
 * (typed fast, or a paste) would each see the value from before the previous key, and act on
 * stale state.
 *
 * Rendered at once: a useState update from a stdin callback gets React's default priority, which
 * Ink's reconciler schedules as a task on a later turn of the event loop — behind whatever else
 * is queued there (a streamed answer's chunks, timers). A change of a store read through
 * useSyncExternalStore is always rendered synchronously (React does so to keep a store's readers
 * consistent), in the microtask right after the handler: the typed character is on screen before
 * the event loop does anything else. Several keys in one read still render once.
 */
import { useCallback, useRef, useSyncExternalStore } from 'react';

type Cell<T> = { value: T; version: number; listeners: Set<() => void> };

export function useRefState<T>(initial: T): [{ readonly current: T }, (next: T) => void] {
  const cell = useRef<Cell<T> | null>(null);
  cell.current ??= { value: initial, version: 0, listeners: new Set() };
  const state = cell.current;
  const subscribe = useCallback(
    (listener: () => void) => {
      state.listeners.add(listener);
      return () => state.listeners.delete(listener);
    },
    [state],
  );
  useSyncExternalStore(subscribe, () => state.version);
  const set = useCallback(
    (next: T) => {
      state.value = next;
      state.version++;
      for (const listener of state.listeners) listener();
    },
    [state],
  );
  const ref = useRef({
    get current(): T {
      return state.value;
    },
  });
  return [ref.current, set];
}
