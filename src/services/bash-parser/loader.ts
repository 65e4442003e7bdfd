/**
 * Lazy singleton for the tree-sitter bash parser. Loading costs a few tens of milliseconds and
 * two wasm files, so it happens on first use, never at startup (principle 8).
 */
import { createRequire } from 'node:module';
import type { Parser } from 'web-tree-sitter';
import { markV8FlagsChanged } from '../../lib/v8-flags';

let parserPromise: Promise<Parser> | undefined;

/**
 * The wasm files are located through module resolution rather than paths relative to this file:
 * that works the same from the TypeScript source under vitest and from the esbuild bundle in
 * dist/app.js, whose directory layout differs.
 */
function resolveWasm(specifier: string): string {
  return createRequire(import.meta.url).resolve(specifier);
}

/**
 * Parsing a command line takes microseconds even in V8's baseline wasm tier, but tiering the
 * 1.4 MB grammar up to optimized code burns about a second of CPU on a background thread — on a
 * small machine that delays the very command the parse was for. Yoke's other wasm (none today)
 * would share the setting, which is why it is applied only here, right before the first load.
 */
function preferBaselineWasm(): void {
  markV8FlagsChanged();
  process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');
}

async function createParser(): Promise<Parser> {
  // Imported before the flag changes: in the built CLI this import runs the runtime's bundle,
  // whose code cache can only be saved while the flags are still a fresh start's.
  const { Parser: ParserClass, Language } = await import('web-tree-sitter');
  preferBaselineWasm();
  const coreWasm = resolveWasm('web-tree-sitter/web-tree-sitter.wasm');
  await ParserClass.init({ locateFile: () => coreWasm });
  const bash = await Language.load(resolveWasm('tree-sitter-bash/tree-sitter-bash.wasm'));
  const parser = new ParserClass();
  parser.setLanguage(bash);
  return parser;
}

/** The shared bash parser; a failed load is not cached, so a later call retries. */
export function loadBashParser(): Promise<Parser> {
  if (!parserPromise) {
    parserPromise = createParser().catch((error: unknown) => {
      parserPromise = undefined;
      throw error;
    });
  }
  return parserPromise;
}
