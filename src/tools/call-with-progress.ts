/**
 * Bridges a tool's callback-style progress into the runner's event stream, and stops waiting the
 * moment the call's signal aborts: a tool that ignores its signal cannot hold up an interrupt.
 */
import { Channel } from '../lib/channel';
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

  // Ends with the outcome: progress after it belongs to nobody, the result may be on its way.
  const progress = new Channel<ToolProgress>();
  let outcome: CallOutcome<T> | undefined;
  const settle = (value: CallOutcome<T>) => {
    outcome ??= value;
    progress.end();
  };
  const onAbort = () => settle({ ok: false, error: signal.reason, aborted: true });
  signal.addEventListener('abort', onAbort, { once: true });

  let running: Promise<T>;
  try {
    running = start((update) => progress.push(update));
  } catch (error) {
    running = Promise.reject(error);
  }
  running.then(
    (value) => settle({ ok: true, value }),
    (error) => settle({ ok: false, error, aborted: signal.aborted }),
  );

  try {
    yield* progress;
    // The channel ends only in `settle`, so the outcome is set.
    return outcome!;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
