/**
 * A TypeScript snippet bundled into a script a test runs as a real process (`node <path>`): a
 * signal, a kill or an exit is then the operating system's, not a stand-in's. The snippet imports
 * modules relative to `resolveDir`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

export type ChildScript = { path: string; remove(): void };

export async function bundleChildScript(source: string, resolveDir: string): Promise<ChildScript> {
  const folder = mkdtempSync(join(tmpdir(), 'yoke-child-'));
  const path = join(folder, 'child.mjs');
  await build({
    stdin: { contents: source, resolveDir, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: path,
    logLevel: 'error',
  });
  return { path, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
