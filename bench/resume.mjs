// Resume of a long session: builds transcripts of 10,000 and 20,000 messages (prompts, tool calls,
// 2 KB tool results, answers) and times `resolveSession({ continue: true })` on each in a fresh
// process (median of RUNS), with RSS before and after the load. Target: 20,000 messages < 1 s, and
// memory growing linearly with size (the 20k/10k ratios should be near 2). Wall time suffers on a
// busy machine; the load average is printed so a slow figure can be read in context.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TARGET_MS = 1000;
const SIZES = [10_000, 20_000];

const work = mkdtempSync(join(tmpdir(), 'yoke-bench-resume-'));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// The session code as the CLI bundles it (the dist chunks have no stable names to import).
const bundle = join(work, 'session.mjs');
await build({
  absWorkingDir: root,
  stdin: {
    contents: `export { resolveSession } from './src/session/resume';
export { conversation, writeSession } from './src/session/transcript-test-support';`,
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: bundle,
  define: { YOKE_VERSION: JSON.stringify(pkg.version) },
  logLevel: 'error',
});

// Runs in a fresh process per measurement so one load cannot warm or bloat the next.
const measure = join(work, 'measure.mjs');
writeFileSync(
  measure,
  `const { resolveSession } = await import(${JSON.stringify(pathToFileURL(bundle).href)});
const [cwd, home] = process.argv.slice(2);
globalThis.gc?.();
const rssBefore = process.memoryUsage().rss;
const cpu0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
const session = await resolveSession({ cwd, env: { YOKE_HOME: home }, continue: true, model: 'claude-sonnet-5-5' });
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
const cpu = process.cpuUsage(cpu0);
const cpuMs = (cpu.user + cpu.system) / 1000;
const rssAfter = process.memoryUsage().rss;
globalThis.gc?.();
const heapLive = process.memoryUsage().heapUsed;
console.log(JSON.stringify({ ms, cpuMs, rssBefore, rssAfter, heapLive, messages: session.messages.length }));
`,
);

const { conversation, writeSession } = await import(pathToFileURL(bundle).href);
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${os.cpus().length} CPUs`,
);
const results = [];
for (const size of SIZES) {
  const home = join(work, `home-${size}`);
  const cwd = join(work, `project-${size}`);
  const { path } = writeSession({ YOKE_HOME: home }, cwd, conversation(size / 4, 2000));
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const r = spawnSync(process.execPath, ['--expose-gc', measure, cwd, home], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`measure failed: ${r.stderr}`);
    runs.push(JSON.parse(r.stdout));
  }
  if (runs.some((r) => r.messages !== size))
    throw new Error(`expected ${size} messages, got ${runs[0].messages}`);
  const row = {
    size,
    fileBytes: statSync(path).size,
    ms: median(runs.map((r) => r.ms)),
    cpuMs: median(runs.map((r) => r.cpuMs)),
    rssBefore: median(runs.map((r) => r.rssBefore)),
    rssAfter: median(runs.map((r) => r.rssAfter)),
    heapLive: median(runs.map((r) => r.heapLive)),
  };
  results.push(row);
  const verdict = size === 20_000 ? (row.ms < TARGET_MS ? '  ok' : `  MISS (target < ${TARGET_MS} ms)`) : '';
  console.log(
    `resume ${size} messages (${mb(row.fileBytes)} MB file): ${row.ms.toFixed(0)} ms median of ${RUNS} ` +
      `(CPU ${row.cpuMs.toFixed(0)} ms, GC threads included); ` +
      `RSS ${mb(row.rssBefore)} → ${mb(row.rssAfter)} MB (+${mb(row.rssAfter - row.rssBefore)}), live heap ${mb(row.heapLive)} MB${verdict}`,
  );
}
const [small, large] = results;
console.log(
  `20k/10k ratios: time ${(large.ms / small.ms).toFixed(2)}, RSS growth ${((large.rssAfter - large.rssBefore) / (small.rssAfter - small.rssBefore)).toFixed(2)}, live heap ${(large.heapLive / small.heapLive).toFixed(2)} (≈2 = linear)`,
);
rmSync(work, { recursive: true, force: true });
