/**
 * A store subscription that calls its listener at most once per `intervalMs` (the last change
 * always arrives). The transcript changes with every streamed delta; the screen needs it only a
 * few times a frame, while a keystroke must render at once — so only the transcript is throttled.
 */
export function throttledSubscribe(
  subscribe: (listener: () => void) => () => void,
  intervalMs: number,
): (listener: () => void) => () => void {
  return (listener) => {
    let timer: NodeJS.Timeout | undefined;
    let last = 0;
    const fire = () => {
      timer = undefined;
      last = Date.now();
      listener();
    };
    const unsubscribe = subscribe(() => {
      if (timer) return;
      const wait = last + intervalMs - Date.now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    });
    return () => {
      if (timer) clearTimeout(timer);
      unsubscribe();
    };
  };
}
