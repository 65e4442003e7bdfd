// Tool turnaround in the built CLI: `node dist/yoke.js -p` against the mock server, behind a
// proxy that answers each request after 300 ms (a real API's time to first token) and records
// when each request arrives and when each response has been sent.
// - The gap between the end of a response asking for a tool and the arrival of the next request
//   is the tool's run plus Yoke's own work. For the first Bash call of a run it also held loading
//   the bash parser (web-tree-sitter and the grammar's wasm), unless that was preloaded while the
//   first request was out. Target: the first Bash call's gap within 30 ms of a Read's gap.
// - The exit wait: from the end of the last response to the process's exit, for a run that used
//   Bash and for one that did not (`-p hi`).
// RUNS runs of each scenario, alternated; medians.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSources, loadLine, median, root, verdict } from './_bundle.mjs';

const { startMockServer } = await importSources(
  'tool-gap',
  `export { startMockServer } from './src/testing/mock-server';`,
);

const RUNS = Number(process.env.BENCH_RUNS ?? 12);
const THINK_MS = 300;
const TARGET_MS = 30;
const entry = join(root, 'dist', 'yoke.js');

const work = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-bench-tool-gap-')));
const cwd = join(work, 'project');
const home = join(work, 'home');
for (const dir of [cwd, home]) mkdirSync(dir, { recursive: true });
writeFileSync(join(cwd, 'notes.txt'), 'some notes\n'.repeat(50));
writeFileSync(join(cwd, 'todo.txt'), 'a todo list\n'.repeat(50));

const bash = (command) => ({ content: [{ type: 'tool_use', name: 'Bash', input: { command } }] });
const read = (file) => ({
  content: [{ type: 'tool_use', name: 'Read', input: { file_path: join(cwd, file) } }],
});
const done = { content: [{ type: 'text', text: 'Done.' }] };
const SCENARIOS = {
  // Read-only commands: allowed without a prompt once the parser has proven them read-only.
  bash: [bash('ls'), bash('ls -a'), done],
  read: [read('notes.txt'), read('todo.txt'), done],
  hi: [done],
};

const mock = await startMockServer({ scenario: [] });

/** Times of the current run: request arrivals and response ends, in the order they happen. */
let log = [];
const proxy = createServer((req, res) => {
  const arrivedAt = performance.now();
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const entry = { arrivedAt, endedAt: undefined };
    log.push(entry);
    await new Promise((resolve) => setTimeout(resolve, THINK_MS));
    const upstream = await fetch(`${mock.url}${req.url}`, {
      method: req.method,
      headers: Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'connection'),
      ),
      body: Buffer.concat(chunks),
    });
    res.writeHead(upstream.status, Object.fromEntries(upstream.headers));
    for await (const chunk of upstream.body) res.write(chunk);
    res.end(() => {
      entry.endedAt = performance.now();
    });
  });
});
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const proxyUrl = `http://127.0.0.1:${proxy.address().port}`;

const env = {
  ...process.env,
  ANTHROPIC_API_KEY: 'sk-ant-bench',
  ANTHROPIC_BASE_URL: proxyUrl,
  YOKE_HOME: home,
  CLAUDE_CONFIG_DIR: join(home, '.claude'),
};
for (const key of ['ANTHROPIC_AUTH_TOKEN', 'OPENAI_API_KEY', 'OPENAI_BASE_URL']) delete env[key];

/** One run; returns the gaps after each tool-asking response and the exit wait. */
function run(name) {
  mock.reset(SCENARIOS[name].map((reply) => ({ reply })));
  log = [];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, '-p', 'go'], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const exitedAt = performance.now();
      if (code !== 0 || !out.includes('Done.')) {
        reject(new Error(`${name} run exited ${code}: ${out}`));
        return;
      }
      const gaps = log.slice(1).map((next, i) => next.arrivedAt - log[i].endedAt);
      resolve({ gaps, exitWait: exitedAt - log.at(-1).endedAt });
    });
  });
}

try {
  console.log(loadLine());
  for (const name of Object.keys(SCENARIOS)) await run(name);
  const samples = { bash: [], read: [], hi: [] };
  for (let i = 0; i < RUNS; i++)
    for (const name of Object.keys(SCENARIOS)) samples[name].push(await run(name));
  const gap = (name, index) => median(samples[name].map((s) => s.gaps[index]));
  const exitWait = (name) => median(samples[name].map((s) => s.exitWait));
  const ms = (x) => `${x.toFixed(1)} ms`;
  console.log(
    `node dist/yoke.js -p, the model answering each request after ${THINK_MS} ms; medians of ${RUNS} runs each:`,
  );
  console.log(
    `  gap after a tool_use to the next request: first Bash (\`ls\`) ${ms(gap('bash', 0))}, ` +
      `second Bash ${ms(gap('bash', 1))}; first Read ${ms(gap('read', 0))}, second Read ${ms(gap('read', 1))}`,
  );
  const extra = gap('bash', 0) - gap('read', 0);
  console.log(
    `  first Bash call over a Read: ${ms(extra)}  target <= ${TARGET_MS} ms  ${verdict(extra <= TARGET_MS)}`,
  );
  console.log(
    `  exit wait (last response sent -> process exit): a run that used Bash ${ms(exitWait('bash'))}, ` +
      `one that used Read ${ms(exitWait('read'))}, \`-p hi\` (no tool) ${ms(exitWait('hi'))} — no target, reported`,
  );
} finally {
  proxy.close();
  await mock.close();
  rmSync(work, { recursive: true, force: true });
}
