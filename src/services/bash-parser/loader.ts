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

const CORE_WASM = 'web-tree-sitter/web-tree-sitter.wasm';
const BASH_WASM = 'tree-sitter-bash/tree-sitter-bash.wasm';

/**
 * Why the parser cannot load here (its package or a wasm file is missing), or undefined when its
 * files are in place. Resolution only: nothing is read or compiled.
 */
export function bashParserProblem(): string | undefined {
  for (const specifier of [CORE_WASM, BASH_WASM]) {
    try {
      resolveWasm(specifier);
    } catch {
      return `the shell parser's ${specifier} is not installed, so no command can be checked. Reinstall Yoke (npm install).`;
    }
  }
  return undefined;
}

async function createParser(): Promise<Parser> {
  // Imported before the flag changes: in the built CLI this import runs the runtime's bundle,
  // whose code cache can only be saved while the flags are still a fresh start's.
  const { Parser: ParserClass, Language } = await import('web-tree-sitter');
  preferBaselineWasm();
  const coreWasm = resolveWasm(CORE_WASM);
  await ParserClass.init({ locateFile: () => coreWasm });
  const bash = await Language.load(resolveWasm(BASH_WASM));
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
