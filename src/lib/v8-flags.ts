/**
 * V8 flags are process-wide, and a V8 code cache only fits a process started with the same
 * flags. Code that changes a flag at run time (the bash parser's wasm tier) marks it here first,
 * so the entry does not save a code cache that the next start would have to throw away. The mark
 * lives on `globalThis` under a registered symbol because the entry and the app are separate
 * bundles. (No `node:v8` import here: the entry must not pay for loading it.)
 */
const CHANGED = Symbol.for('yoke.v8FlagsChanged');

/** Call right before `v8.setFlagsFromString`. */
export function markV8FlagsChanged(): void {
  (globalThis as Record<symbol, unknown>)[CHANGED] = true;
}

/** Whether anything changed a V8 flag since this process started. */
export function v8FlagsChanged(): boolean {
  return (globalThis as Record<symbol, unknown>)[CHANGED] === true;
}
