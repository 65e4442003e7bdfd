/**
 * A store subscription that calls its listener at most once per `intervalMs` (the last change
 * always arrives). The transcript changes with every streamed delta; the screen needs it only a
 * few times a frame, while a keystroke must render at once — so only the transcript is throttled.
 * The interval is timed on the monotonic clock: had the wall clock been set back an hour, a
 * streaming answer would otherwise stand still on screen for that hour.
 */
export function throttledSubscribe(
  subscribe: (listener: () => void) => () => void,
  intervalMs: number,
): (listener: () => void) => () => void {
  return (listener) => {
    let timer: NodeJS.Timeout | undefined;
    let last = Number.NEGATIVE_INFINITY;
    const fire = () => {
      timer = undefined;
      last = performance.now();
      listener();
    };
    const unsubscribe = subscribe(() => {
      if (timer) return;
      const wait = last + intervalMs - performance.now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    });
    return () => {
      if (timer) clearTimeout(timer);
      unsubscribe();
    };
  };
}
