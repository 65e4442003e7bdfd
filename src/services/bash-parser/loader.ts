/**
 * Lazy singleton for the tree-sitter bash parser. Loading costs a few tens of milliseconds and
 * two wasm files, so it never happens at startup (principle 8): on first use, or in the
 * background once a session's first request is out (tools/builtin/bash/preload.ts).
 */
import { createRequire } from 'node:module';
import type { Parser } from 'web-tree-sitter';
import { findInstalledFile } from '../../lib/installed-files';
import { preferBaselineWasm } from '../../lib/v8-flags';

// Process-wide on purpose: the parser keeps nothing between parses, and every session loading its
// own would pay for the wasm again.
let parserPromise: Promise<Parser> | undefined;

/**
 * The wasm files are located through module resolution rather than paths relative to this file:
 * that works the same from the TypeScript source under vitest and from the esbuild bundle in
 * dist/app.js, whose directory layout differs.
 */
function resolveWasm(specifier: string): string {
  return createRequire(import.meta.url).resolve(specifier);
}

const CORE_WASM = 'web-tree-sitter/web-tree-sitter.wasm';
const BASH_WASM = 'tree-sitter-bash/tree-sitter-bash.wasm';

/**
 * Why the parser cannot load here (its package or a wasm file is missing), or undefined when its
 * files are in place. A look for the files only: nothing is read or compiled.
 */
export function bashParserProblem(): string | undefined {
  for (const file of [CORE_WASM, BASH_WASM]) {
    if (!findInstalledFile(import.meta.url, [file])) {
      return `the shell parser's ${file} is not installed, so no command can be checked. Reinstall Yoke (npm install).`;
    }
  }
  return undefined;
}

async function createParser(): Promise<Parser> {
  // Imported first: in the built CLI this runs the runtime's bundle through its code cache, which
  // is read and saved under the flags of the moment (lib/v8-flags.ts).
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
