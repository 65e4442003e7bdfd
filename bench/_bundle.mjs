// Shared by the bench scripts (run.mjs skips files starting with `_`): bundles a few TypeScript
// sources with esbuild, the way context.mjs does, so a bench can call engine modules directly
// without a build of the CLI. Outputs go under node_modules/.cache so external packages resolve.
import { mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Bundles `contents` (a TypeScript entry resolved from the repo root) to `outfile`; returns it. */
export async function bundleTo(outfile, contents) {
  mkdirSync(dirname(outfile), { recursive: true });
  await build({
    stdin: { contents, resolveDir: root, loader: 'ts', sourcefile: 'bench-entry.ts' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile,
    packages: 'external',
    loader: { '.md': 'text' },
    define: { YOKE_VERSION: '"bench"' },
    logLevel: 'error',
  });
  return outfile;
}

/** A bundle path in node_modules/.cache that is unique to this process. */
export function cachePath(name) {
  return join(root, 'node_modules', '.cache', `yoke-bench-${name}-${process.pid}.mjs`);
}

/** Bundles `contents`, imports it and deletes the file again. */
export async function importSources(name, contents) {
  const outfile = await bundleTo(cachePath(name), contents);
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(outfile, { force: true });
  }
}

export const quantile = (sorted, q) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
export const median = (xs) =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
export const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
export const verdict = (ok) => (ok ? 'PASS' : 'MISS');

/** One line naming the machine's load, so slow figures can be read in context. */
export function loadLine() {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  return `load average ${load} on ${os.cpus().length} CPUs`;
}

/** The environment the REPL benches start Yoke in: a home of its own, a 256-colour terminal, one model endpoint. */
export function replEnv(home, baseUrl) {
  return {
    PATH: process.env.PATH,
    HOME: home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    ANTHROPIC_API_KEY: 'sk-ant-bench',
    ANTHROPIC_BASE_URL: baseUrl,
    YOKE_HOME: join(home, '.yoke'),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
  };
}
