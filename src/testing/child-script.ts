/**
 * For tests that need a second Node process running Yoke's TypeScript (a writer killed mid-write,
 * a run with other V8 flags): bundles `source` (TypeScript; imports resolve from `resolveDir`)
 * into one ES module file in a new temp folder, which the caller removes with `dispose`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

export type ChildScript = { path: string; dispose(): void };

export async function bundleChildScript(
  source: string,
  resolveDir: string,
  define: Record<string, string> = {},
): Promise<ChildScript> {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-child-script-'));
  const path = join(dir, 'child.mjs');
  await build({
    stdin: { contents: source, resolveDir, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: path,
    define,
    logLevel: 'error',
  });
  return { path, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
