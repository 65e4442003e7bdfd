// Cold start of `node dist/yoke.js --version`: wall time (median, min, p90) and peak RSS, next to
// bare `node -e 0` so the share that is Yoke's own is visible. Targets: < 60 ms, < 60 MB.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'dist', 'yoke.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const RSS_RUNS = Math.max(3, Math.round(RUNS / 4));
const WARMUPS = 2;
const TARGET_MS = 60;
const TARGET_MB = 60;

if (!existsSync(entry)) {
  console.error('cold-start: dist/yoke.js is missing; run `npm run build` first.');
  process.exit(1);
}

const yoke = [entry, '--version'];
const bare = ['-e', '0'];

// This sandbox sets NODE_EXTRA_CA_CERTS, which makes every node process parse a CA bundle at
// start (about 50 ms here, before any of Yoke's code runs). The figures are printed both ways.
let childEnv = process.env;

function runOnce(args) {
  const began = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', env: childEnv });
  const ms = Number(process.hrtime.bigint() - began) / 1e6;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

function quantile(sorted, q) {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

function wallTimes(args) {
  for (let i = 0; i < WARMUPS; i++) runOnce(args);
  const times = [];
  for (let i = 0; i < RUNS; i++) times.push(runOnce(args).ms);
  times.sort((a, b) => a - b);
  return { median: quantile(times, 0.5), min: times[0], p90: quantile(times, 0.9) };
}

// Peak RSS. GNU time reports the child's ru_maxrss exactly and adds nothing to the child. Without
// it (macOS, BusyBox), a preloaded exit hook prints the process's own maxRSS (KB on every OS);
// the hook module itself costs well under 1 MB.
const MARK = 'YOKE_BENCH_MAXRSS_KB=';
function gnuTimeWorks() {
  if (!existsSync('/usr/bin/time')) return false;
  const r = spawnSync('/usr/bin/time', ['-f', `${MARK}%M`, 'true'], { encoding: 'utf8' });
  return r.status === 0 && new RegExp(`${MARK}\\d+`).test(r.stderr);
}
const hook = `data:text/javascript,process.on('exit',()=>process.stderr.write('\\n${MARK}'+process.resourceUsage().maxRSS+'\\n'))`;
// BENCH_RSS_METHOD=hook forces the fallback, to check it where GNU time exists.
const useGnuTime = process.env.BENCH_RSS_METHOD !== 'hook' && gnuTimeWorks();
const rssMethod = useGnuTime
  ? 'GNU /usr/bin/time -f %M'
  : 'process.resourceUsage().maxRSS from an --import exit hook';

function peakRssMb(args) {
  const samples = [];
  for (let i = 0; i < RSS_RUNS; i++) {
    const r = useGnuTime
      ? spawnSync('/usr/bin/time', ['-f', `${MARK}%M`, process.execPath, ...args], { encoding: 'utf8' })
      : spawnSync(process.execPath, ['--import', hook, ...args], { encoding: 'utf8' });
    const m = new RegExp(`${MARK}(\\d+)`).exec(r.stderr);
    if (r.status !== 0 || !m) throw new Error(`peak RSS measurement failed: ${r.stderr}`);
    samples.push(Number(m[1]) / 1024);
  }
  samples.sort((a, b) => a - b);
  return { median: quantile(samples, 0.5), max: samples[samples.length - 1] };
}

const version = runOnce(yoke).stdout.trim();
const passes = [{ label: 'environment as is', env: process.env }];
if (process.env.NODE_EXTRA_CA_CERTS) {
  const { NODE_EXTRA_CA_CERTS: _ca, ...env } = process.env;
  passes.push({
    label: 'without NODE_EXTRA_CA_CERTS (the sandbox adds it; it costs node itself ~50 ms)',
    env,
  });
}

const f = (n) => n.toFixed(1);
const verdict = (ok) => (ok ? 'PASS' : 'MISS');
console.log(
  `cold start: node dist/yoke.js --version -> "${version}" (${process.version}, ${RUNS} runs after ${WARMUPS} warm-ups)`,
);
for (const pass of passes) {
  childEnv = pass.env;
  report(pass.label, wallTimes(yoke), wallTimes(bare), peakRssMb(yoke), peakRssMb(bare));
}

function report(label, t, b, rss, bareRss) {
  console.log(`  [${label}]`);
  console.log(
    `  wall time  median ${f(t.median)} ms  min ${f(t.min)} ms  p90 ${f(t.p90)} ms  ` +
      `target < ${TARGET_MS} ms  ${verdict(t.median < TARGET_MS)}`,
  );
  console.log(
    `  peak RSS   median ${f(rss.median)} MB  max ${f(rss.max)} MB (${RSS_RUNS} runs)  ` +
      `target < ${TARGET_MB} MB  ${verdict(rss.median < TARGET_MB)}`,
  );
  console.log(`  RSS method ${rssMethod}`);
  console.log(
    `  bare node -e 0: median ${f(b.median)} ms, ${f(bareRss.median)} MB; ` +
      `yoke/bare ratio ${(t.median / b.median).toFixed(2)}x time, ${(rss.median / bareRss.median).toFixed(2)}x RSS`,
  );
}
