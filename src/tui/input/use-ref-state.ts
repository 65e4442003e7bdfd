/**
 * State that a key handler reads at once: set() updates the value immediately and asks React to
 * render. With useState, keys that arrive in one read (typed fast, or a paste) would each see the
 * value from before the previous key, and act on stale state.
 */
import { useCallback, useRef, useState } from 'react';

export function useRefState<T>(initial: T): [{ readonly current: T }, (next: T) => void] {
  const ref = useRef(initial);
  const [, setVersion] = useState(0);
  const set = useCallback((next: T) => {
    ref.current = next;
    setVersion((v) => v + 1);
  }, []);
  return [ref, set];
}
