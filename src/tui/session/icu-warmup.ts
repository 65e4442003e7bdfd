/**
 * ICU's start, on a worker thread. The process's first Intl object initialises ICU (its locale
 * and break-iterator data: ~20–30 ms on a small machine), one stretch of the main thread that no
 * keystroke can interrupt — the idle warm-up made its grapheme segmenter there, so a user typing
 * in that instant waited for it. ICU's data and caches belong to the process, not to a V8
 * isolate: once a worker thread has made a segmenter, the main thread's first one costs ~0.1 ms.
 * What the main thread still pays is loading `worker_threads` (~3–5 ms) and starting the worker
 * (~3–5 ms), each on a turn of the event loop of its own; the worker's own start and ICU's run
 * on another thread.
 */
import { yieldToInput } from '../../lib/yield-to-input';

/** The worker's whole job: a grapheme segmenter (the kind the REPL and Ink make), used once. */
export const START_ICU_SOURCE =
  "[...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment('\\u{1F44D}\\u{1F3FD} e\\u0301 \\u4E2D')];";

/**
 * Starts ICU on a worker thread; true once the worker has made its segmenter, false where it could
 * not (no worker could start, it failed, or the session closed first): the caller's segmenter
 * then starts ICU on the main thread, as before.
 */
export async function startIcuOffThread(signal: AbortSignal): Promise<boolean> {
  await yieldToInput();
  if (signal.aborted) return false;
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  await yieldToInput();
  if (signal.aborted) return false;
  return new Promise((resolve) => {
    let worker: InstanceType<typeof Worker>;
    try {
      // Nothing of the parent's is needed: no environment, no standard input.
      worker = new Worker(START_ICU_SOURCE, { eval: true, env: {}, stdin: false });
    } catch {
      resolve(false);
      return;
    }
    // A REPL that quits meanwhile does not wait for it.
    worker.unref();
    const stop = () => void worker.terminate();
    signal.addEventListener('abort', stop, { once: true });
    // A failure is the exit code's to tell (1); the error itself has nowhere to go.
    worker.on('error', () => {});
    worker.once('exit', (code) => {
      signal.removeEventListener('abort', stop);
      resolve(code === 0 && !signal.aborted);
    });
  });
}
