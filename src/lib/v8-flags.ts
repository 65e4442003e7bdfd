/**
 * Yoke runs its wasm in V8's baseline tier only (`--liftoff-only`): the bash parser's 1.4 MB
 * grammar parses a command line in microseconds even there, while tiering it up to optimized code
 * burns about a second of CPU on a background thread — on a small machine that delays the very
 * command the parse was for, and Node's exit waits for such background work. It is compiled
 * eagerly (`--no-wasm-lazy-compilation`), off the main thread, rather than on the main thread
 * during the first parse. (The model transport and WebFetch use node:http, whose parser is
 * native, so no other wasm runs.)
 *
 * A V8 flag cannot simply be set at start, though. Once any flag changes, V8 refuses code caches
 * made under the old flags: Node's own, for every built-in module loaded afterwards (they then
 * compile from source, about 3x slower), and Yoke's (lib/cached-script.ts). So the flag is set as
 * late as it can be — right before the bash parser compiles its wasm (the tier is fixed per wasm
 * module when it is compiled) — and at that moment:
 * - the built-in modules a run needs from then on (fetch's classes, TLS, DNS) are loaded first;
 * - code caches that would be saved later under the new flags are saved now (`beforeChange`);
 * - every code cache records the flags it was made under (`v8FlagsTag`), so a bundle loaded after
 *   the change keeps a cache of its own.
 * The state lives on `globalThis` under a registered symbol: the entry and the app are separate
 * bundles and both read it.
 */
type FlagState = { baseline: boolean; beforeChange: (() => void)[] };

const KEY = Symbol.for('yoke.v8Flags');

function state(): FlagState {
  const holder = globalThis as Record<symbol, FlagState | undefined>;
  holder[KEY] ??= { baseline: false, beforeChange: [] };
  return holder[KEY];
}

/** Which flags code compiled now runs under: part of a code cache's name ('' at start). */
export function v8FlagsTag(): string {
  return state().baseline ? 'liftoff' : '';
}

/** Runs `hook` right before the flags change (to save a code cache made under the start's flags). */
export function beforeV8FlagsChange(hook: () => void): void {
  state().beforeChange.push(hook);
}

/** Switches wasm to the baseline tier for the rest of the process; later calls do nothing. */
export function preferBaselineWasm(): void {
  const current = state();
  if (current.baseline) return;
  // What the run loads from here on, loaded while Node's code cache still fits: `Headers` brings
  // in fetch's whole stack (undici, HTTP/2, TLS, web streams); DNS comes with the first connection.
  new Headers();
  process.getBuiltinModule('node:dns');
  for (const hook of current.beforeChange.splice(0)) hook();
  const v8 = process.getBuiltinModule('node:v8');
  v8.setFlagsFromString('--liftoff-only');
  // And each module compiled whole when it is compiled — on V8's background threads, since the
  // parser's modules are instantiated asynchronously — not function by function as a call first
  // reaches each: lazily, the first command line parsed compiled every grammar function it
  // touched on the main thread, one 40–75 ms wasm call that no keystroke could interrupt.
  v8.setFlagsFromString('--no-wasm-lazy-compilation');
  current.baseline = true;
}
