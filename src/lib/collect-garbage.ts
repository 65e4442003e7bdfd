/**
 * A full garbage collection at a moment the caller chooses. V8 collects when its heuristics say
 * so, and in a freshly started REPL they say so at the worst moment: start-up leaves megabytes
 * of garbage (module sources, parsed settings, the first render's trees), the first keystrokes
 * then allocate enough to grow the young generation, and that growth tips the old generation
 * over its first limit — an incremental collection whose final pause (10–15 ms on a small
 * machine) lands among the first keys the user types. Collected while the REPL waits for its
 * first key, that garbage is gone, and V8 sets the next limit from what is really alive.
 *
 * Node offers no collection on demand without `--expose-gc`, and a V8 flag left changed costs
 * (lib/v8-flags.ts: code caches made under other flags are refused). So the flag is set only for
 * the moment it takes to read `gc` from a new context, then set back: V8 derives a code cache's
 * flag check from the flags' current values, so with the value restored, caches made before
 * and after still fit (a test shows it with a real code cache).
 */
import { createContext, runInContext } from 'node:vm';

type Collect = () => void;

/** The `gc` a new context sees: there only while V8's `--expose-gc` is on. */
const gcOfNewContext = (): unknown =>
  runInContext('typeof gc === "function" ? gc : undefined', createContext());

/** V8's collector, without leaving any V8 flag changed; undefined where that cannot be had. */
function findCollector(): Collect | undefined {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as Collect;
  const v8 = process.getBuiltinModule('node:v8');
  try {
    // Started with the flag (and `gc` taken off the global): use it, and leave the flag as it is.
    const already = gcOfNewContext();
    if (typeof already === 'function') return already as Collect;
    v8.setFlagsFromString('--expose-gc');
    try {
      const found = gcOfNewContext();
      return typeof found === 'function' ? (found as Collect) : undefined;
    } finally {
      v8.setFlagsFromString('--no-expose-gc');
    }
  } catch {
    return undefined;
  }
}

/** Runs one full collection now; false when this Node offers none (nothing else happens then). */
export function collectGarbageNow(): boolean {
  const collect = findCollector();
  if (!collect) return false;
  collect();
  return true;
}
