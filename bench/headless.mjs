// Headless CLI: a one-turn `node dist/yoke.js -p "hi"` against the mock server (in this
// process), timed from just before spawn to the moment its first request reaches the server, and
// its peak RSS; next to the floor, a bare Node script that only sends the same request (the same
// body and headers, with fetch, the transport the Anthropic SDK uses) and reads the answer.
// RUNS alternated pairs; the time verdict is the median of the pairs' ratios, the RSS one the ratio
// of medians. Targets: Yoke within 1.3x of the floor on both.
// The first run starts from the build's warm-up cache and saves its own (src/lib/cached-script.ts),
// which the measured runs use; the time of a start without any cache is printed too.
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadLine, median, verdict } from './_bundle.mjs';
import { entry, requireBuild, startCliBench } from './_cli.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const RSS_RUNS = Math.max(3, Math.round(RUNS / 2));
const TARGET_RATIO = 1.3;
requireBuild('headless');

const work = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-bench-headless-')));
const cwd = join(work, 'project');
const home = join(work, 'home');
for (const dir of [cwd, home]) mkdirSync(dir, { recursive: true });

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))];

const bench = await startCliBench('headless', { home });
const { server } = bench;
const run = (args, { rss = false, extraEnv = {} } = {}) =>
  bench.run(args, { cwd, extraEnv, ...(rss ? { measure: 'rss' } : {}) });

try {
  console.log(loadLine());
  const yoke = [entry, '-p', 'hi'];
  const first = await run(yoke);
  if (first.stdout.trim() !== 'Hello!') throw new Error(`unexpected answer: ${first.stdout}`);
  const firstRequest = server.requests[0];
  if (firstRequest?.path !== '/v1/messages') throw new Error(`first request went to ${firstRequest?.path}`);

  // The floor: the same POST, nothing else.
  const floorScript = join(work, 'floor.mjs');
  const headers = { 'content-type': 'application/json' };
  for (const name of ['x-api-key', 'anthropic-version', 'accept']) {
    if (firstRequest.headers[name] !== undefined) headers[name] = firstRequest.headers[name];
  }
  writeFileSync(
    floorScript,
    `const response = await fetch(${JSON.stringify(`${server.url}/v1/messages`)}, {
  method: 'POST',
  headers: ${JSON.stringify(headers)},
  body: ${JSON.stringify(JSON.stringify(firstRequest.body))},
});
await response.text();
if (!response.ok) process.exit(1);
`,
  );
  const floor = [floorScript];
  await run(floor);

  const t = { yoke: [], floor: [] };
  for (let i = 0; i < RUNS; i++) {
    t.yoke.push((await run(yoke)).firstRequestMs);
    t.floor.push((await run(floor)).firstRequestMs);
  }
  const uncached = [];
  for (let i = 0; i < Math.max(3, Math.round(RUNS / 2)); i++) {
    uncached.push((await run(yoke, { extraEnv: { YOKE_CODE_CACHE: 'off' } })).firstRequestMs);
  }
  const rss = { yoke: [], floor: [] };
  for (let i = 0; i < RSS_RUNS; i++) {
    rss.yoke.push((await run(yoke, { rss: true })).rssMb);
    rss.floor.push((await run(floor, { rss: true })).rssMb);
  }
  // Each Yoke run is paired with the floor run right after it, and the verdict is the median of
  // the pairs' ratios: on a shared machine whose speed drifts by tens of percent within a minute,
  // two runs seconds apart see the same machine, while two medians over a minute may not.
  const pairRatios = t.yoke.map((y, i) => y / t.floor[i]);
  const timeRatio = median(pairRatios);
  const rssRatio = median(rss.yoke) / median(rss.floor);
  const bodyKb = (JSON.stringify(firstRequest.body).length / 1024).toFixed(1);
  console.log(
    `node dist/yoke.js -p "hi" vs a bare fetch of the same request (${bodyKb} KB body), ${process.version}:`,
  );
  console.log(
    `  spawn -> first request at the server: Yoke median ${median(t.yoke).toFixed(1)} ms (min ${Math.min(...t.yoke).toFixed(1)}), ` +
      `floor ${median(t.floor).toFixed(1)} ms (min ${Math.min(...t.floor).toFixed(1)}) -> ` +
      `${(median(t.yoke) / median(t.floor)).toFixed(2)}x of the medians  (${RUNS} runs each, alternated)`,
  );
  console.log(
    `  median of the ${RUNS} back-to-back pairs' ratios: ${timeRatio.toFixed(2)}x ` +
      `(quartiles ${quantile(pairRatios, 0.25).toFixed(2)}-${quantile(pairRatios, 0.75).toFixed(2)})  ` +
      `target <= ${TARGET_RATIO}x  ${verdict(timeRatio <= TARGET_RATIO)}`,
  );
  console.log(
    `  Yoke's own share before the request: ${(median(t.yoke) - median(t.floor)).toFixed(1)} ms (median difference)`,
  );
  console.log(
    `  without a code cache (YOKE_CODE_CACHE=off; as after a Node upgrade until a run saves one): median ${median(uncached).toFixed(1)} ms ` +
      `-> ${(median(uncached) / median(t.floor)).toFixed(2)}x the floor (${uncached.length} runs)`,
  );
  // What a start deserializes scales with app.js; the lazy bundles load only when used.
  const distDir = dirname(entry);
  const kb = (file) => statSync(join(distDir, file)).size / 1024;
  const lazy = readdirSync(distDir).filter((f) => /^lazy-.*\.js$/.test(f));
  console.log(
    `  dist/app.js (read and deserialized by every start): ${kb('app.js').toFixed(0)} KB; ` +
      `lazy bundles: ${lazy.reduce((sum, f) => sum + kb(f), 0).toFixed(0)} KB in ${lazy.length} files`,
  );
  console.log(
    `  peak RSS (whole run): Yoke median ${median(rss.yoke).toFixed(1)} MB, floor ${median(rss.floor).toFixed(1)} MB -> ` +
      `${rssRatio.toFixed(2)}x  target <= ${TARGET_RATIO}x  ${verdict(rssRatio <= TARGET_RATIO)}  (${RSS_RUNS} runs each, ` +
      `${bench.rssMethod})`,
  );
} finally {
  await bench.close();
  rmSync(work, { recursive: true, force: true });
}
