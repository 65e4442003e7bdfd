/**
 * When a lazy or vendor bundle's code cache is saved. A code cache holds the compiled code of the
 * functions that had run when it was made. Saved right after the bundle's top level ran (the
 * default), it lets later loads skip compiling that top level — what a short run pays for. The
 * REPL is long-lived and what it must not pay for is different: its first keystrokes ran the
 * editor, React's render and Ink's output for the first time, compiling them on the spot (several
 * ms of CPU per key for the first dozen keys). So in the REPL the save waits for the end of the
 * session (or for the V8 flag change that would make a later cache unusable), and the cache then
 * holds what typing and streaming compiled. Process-wide on purpose: it is a property of the run.
 */
import { beforeV8FlagsChange } from './v8-flags';

const KEY = Symbol.for('yoke.bundleCacheTiming');
type Timing = { late: boolean };

function timing(): Timing {
  const holder = globalThis as Record<symbol, Timing | undefined>;
  holder[KEY] ??= { late: false };
  return holder[KEY];
}

/** From now on, bundles loaded in this process save their code cache when the run ends. */
export function saveBundleCachesLate(): void {
  timing().late = true;
}

type Occasions = { exit(listener: () => void): void; flagsChange(listener: () => void): void };

const processOccasions: Occasions = {
  exit: (listener) => process.once('exit', listener),
  flagsChange: beforeV8FlagsChange,
};

/** Saves now, or — in a long-lived run — before a flag change or at exit, whichever comes first. */
export function scheduleCodeCacheSave(save: () => void, on: Occasions = processOccasions): void {
  if (!timing().late) {
    save();
    return;
  }
  let saved = false;
  const once = () => {
    if (saved) return;
    saved = true;
    save();
  };
  on.flagsChange(once);
  on.exit(once);
}

/** For tests: back to saving at once. */
export function saveBundleCachesAtOnce(): void {
  timing().late = false;
}
