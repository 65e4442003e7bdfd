/**
 * Bridges a tool's callback-style progress into the runner's event stream, and stops waiting the
 * moment the call's signal aborts: a tool that ignores its signal cannot hold up an interrupt.
 */
import type { ToolProgress } from './tool';

export type CallOutcome<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      error: unknown;
      /** The signal fired before the call settled; the error is then the abort reason. */
      aborted: boolean;
    };

export async function* callWithProgress<T>(
  start: (onProgress: (progress: ToolProgress) => void) => Promise<T>,
  signal: AbortSignal,
): AsyncGenerator<ToolProgress, CallOutcome<T>> {
  if (signal.aborted) return { ok: false, error: signal.reason, aborted: true };

  const pending: ToolProgress[] = [];
  let outcome: CallOutcome<T> | undefined;
  let wake: (() => void) | undefined;
  const poke = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const settle = (value: CallOutcome<T>) => {
    outcome ??= value;
    poke();
  };
  const onAbort = () => settle({ ok: false, error: signal.reason, aborted: true });
  signal.addEventListener('abort', onAbort, { once: true });

  let running: Promise<T>;
  try {
    running = start((progress) => {
      // Progress after the outcome belongs to nobody: the result may already be on its way.
      if (outcome) return;
      pending.push(progress);
      poke();
    });
  } catch (error) {
    running = Promise.reject(error);
  }
  running.then(
    (value) => settle({ ok: true, value }),
    (error) => settle({ ok: false, error, aborted: signal.aborted }),
  );

  try {
    while (true) {
      let next = pending.shift();
      while (next) {
        yield next;
        next = pending.shift();
      }
      if (outcome) return outcome;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
