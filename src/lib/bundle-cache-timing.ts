/**
 * When a lazy or vendor bundle's code cache is saved. A code cache holds the compiled code of the
 * functions that had run when it was made. Saved right after the bundle's top level ran (the
 * default), it lets later loads skip compiling that top level — what a short run pays for. The
 * REPL is long-lived and what it must not pay for is different: its first keystrokes ran the
 * editor, React's render and Ink's output for the first time, compiling them on the spot (several
 * ms of CPU per key for the first dozen keys). So in the REPL the save waits until that code has
 * run, and happens at the first of:
 * - a quiet moment after the session has done some work (`checkpointDue`): the event loop spent
 *   half a second of work since start (the start itself is about 200 ms on a small machine; a
 *   streamed answer, typing and a tool's output add the rest), then a whole check interval with
 *   next to none (at the prompt it is ~0.01%; a turn's spinner alone keeps it above 1%). The save costs a few ms of CPU there, where nobody waits,
 *   and holds the launch path, typing and streaming. It also covers the exits below that never
 *   come to a save (SIGKILL, a crash, a clean-up the user gives up on);
 * - the first SIGINT, SIGTERM or SIGHUP: saved before the clean-up starts, since a second signal
 *   during it ends the process by the default action, with no exit event;
 * - the V8 flag change that would make a later cache unusable (lib/v8-flags.ts);
 * - the process's exit.
 * Once is enough: a later save would not hold more of what a launch needs — V8 drops the bytecode
 * of functions that have not run for a while, so a save late in a long session can hold less of
 * the launch path than one made minutes after start. Process-wide on purpose: it is a property of
 * the run, and signals are the process's.
 */
import { performance } from 'node:perf_hooks';
import { beforeV8FlagsChange } from './v8-flags';

const KEY = Symbol.for('yoke.bundleCacheTiming');
type Timing = {
  late: boolean;
  /** Saves of the bundles loaded so far, not yet made. */
  pending: (() => void)[];
  /** Set once the occasions are watched (saveBundleCachesLate), so they are watched once. */
  watching: boolean;
};

function timing(): Timing {
  const holder = globalThis as Record<symbol, Timing | undefined>;
  holder[KEY] ??= { late: false, pending: [], watching: false };
  return holder[KEY];
}

/** Saves every bundle's cache not saved yet; a bundle loaded later waits for the next occasion. */
export function saveBundleCachesNow(): void {
  for (const save of timing().pending.splice(0)) save();
}

/** The signals that end a REPL; their first arrival saves (see above). */
export const ENDING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** How often the event loop's work is looked at, and how much work makes a checkpoint due. */
export const CHECK_INTERVAL_MS = 5_000;
const WORK_BEFORE_CHECKPOINT_MS = 500;
/** A check interval with less than this share of work counts as quiet: nothing runs, not even a spinner. */
const QUIET_UTILIZATION = 0.005;

/**
 * Whether to save at this check: enough work since start for the cache to hold what the session
 * runs, and a quiet interval, so the save delays nothing the user waits for.
 */
export function checkpointDue(workSinceStartMs: number, lastIntervalUtilization: number): boolean {
  return workSinceStartMs >= WORK_BEFORE_CHECKPOINT_MS && lastIntervalUtilization < QUIET_UTILIZATION;
}

export type Occasions = {
  exit(listener: () => void): void;
  flagsChange(listener: () => void): void;
  /** Calls `listener` at the first ending signal. */
  signal(listener: () => void): void;
  /** Calls `check` every CHECK_INTERVAL_MS with the loop's work so far and its last interval's share; returns the stop. */
  periodically(check: (workSinceStartMs: number, lastIntervalUtilization: number) => void): () => void;
};

/**
 * The first ending signal saves, then lets the signal do what it would have done: when no one
 * else listens for it, it is raised again and the default action ends the process as before.
 */
function onFirstEndingSignal(listener: () => void): void {
  const handlers = new Map<NodeJS.Signals, () => void>();
  for (const signal of ENDING_SIGNALS) {
    const handler = () => {
      for (const [name, other] of handlers) process.off(name, other);
      listener();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    handlers.set(signal, handler);
    // First in line: the save is made before the session's own handler starts its clean-up.
    process.prependListener(signal, handler);
  }
}

function everyInterval(check: (workMs: number, utilization: number) => void): () => void {
  const start = performance.eventLoopUtilization();
  let previous = start;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const interval = performance.eventLoopUtilization(now, previous);
    previous = now;
    check(now.active, interval.utilization);
  }, CHECK_INTERVAL_MS);
  // It must never keep a finished session's process alive.
  timer.unref();
  return () => clearInterval(timer);
}

const processOccasions: Occasions = {
  exit: (listener) => process.once('exit', listener),
  flagsChange: beforeV8FlagsChange,
  signal: onFirstEndingSignal,
  periodically: everyInterval,
};

/** From now on, bundles loaded in this process save their code cache at the occasions above. */
export function saveBundleCachesLate(on: Occasions = processOccasions): void {
  const state = timing();
  state.late = true;
  if (state.watching) return;
  state.watching = true;
  let stopChecks = () => {};
  const save = () => {
    stopChecks();
    saveBundleCachesNow();
  };
  on.flagsChange(save);
  on.exit(save);
  on.signal(save);
  stopChecks = on.periodically((workMs, utilization) => {
    if (state.pending.length > 0 && checkpointDue(workMs, utilization)) save();
  });
}

/**
 * A `-p` run or an SDK session: the bundles it loads before its first reply (the engine's, at
 * once) save their caches when the app saves its own (cli/app-loader.ts) — after that reply, so
 * they hold what the start compiled and not only their top level — or before V8's flags change.
 * Returns the release, which saves what is held; bundles loaded after it save at once.
 */
export function holdBundleCachesForStartup(
  flagsChange: Occasions['flagsChange'] = beforeV8FlagsChange,
): () => void {
  const state = timing();
  state.late = true;
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    state.late = false;
    saveBundleCachesNow();
  };
  flagsChange(release);
  return release;
}

/** Saves now, or — in a long-lived run — at the first occasion above. */
export function scheduleCodeCacheSave(save: () => void): void {
  const state = timing();
  if (state.late) state.pending.push(save);
  else save();
}

/** For tests: back to saving at once, with nothing pending or watched. */
export function saveBundleCachesAtOnce(): void {
  const state = timing();
  state.late = false;
  state.pending = [];
  state.watching = false;
}
