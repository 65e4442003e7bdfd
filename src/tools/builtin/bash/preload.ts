/**
 * Gets the Bash tool ready in the background, so its first call costs what later calls cost:
 * the shell parser is loaded (the web-tree-sitter runtime and the grammar's 1.4 MB of wasm, about
 * 150 ms), one command line is parsed and classified so the code around the parse is compiled
 * too, and `node:child_process` is loaded. Nothing runs: no process is started, no file written.
 */

export async function preloadBash(): Promise<void> {
  try {
    // The parser and the permission checks are the `shell` lazy bundle (scripts/build.mjs).
    const { isReadOnlyCommand } = await import('../../../services/bash-parser');
    await isReadOnlyCommand('ls -la');
  } catch {
    // Left for the first real use to report (and retry): a preload must never break a run.
  }
  process.getBuiltinModule('node:child_process');
}
