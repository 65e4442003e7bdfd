// The interactive UI, measured through a pseudo-terminal (bench/tui-pty.py, Python's pty module)
// at 100x30 against the mock model server streaming one delta every 25 ms: keystroke-to-echo
// latency idle, while an answer streams, while a tool prints 10,000 lines and after a
// 1,000-message session (median, p99), bytes written to the terminal per streamed token,
// full-screen clears while streaming, idle RSS after start and after a 200-message session, and
// launch to a usable prompt. Figures, not tests; the targets are issue
// 14's (Claude Code 2.1.328 measured the same way is the anchor in brackets). On a machine others
// are loading, `bench/with-priority.sh node bench/tui.mjs` gives figures close to a quiet one's.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSources, loadLine, median, quantile, replEnv, root, verdict } from './_bundle.mjs';
import { printEchoSplit } from './_echo-split.mjs';

const { startMockServer } = await importSources(
  'tui',
  `export { startMockServer } from './src/testing/mock-server';`,
);

const python = spawnSync('python3', ['-c', 'import pty'], { encoding: 'utf8' });
if (python.status !== 0) {
  console.log('tui: skipped: python3 with the pty module is needed (.ci/run installs python3).');
  process.exit(0);
}

const work = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-bench-tui-')));
const cwd = join(work, 'project');
const home = join(work, 'home');
for (const dir of [cwd, home]) mkdirSync(dir, { recursive: true });

const WORDS = 1500;
const streamText = Array.from({ length: WORDS }, (_, i) =>
  i % 12 === 11 ? `word${i}.\n\n` : `word${i}`,
).join(' ');
const DELTAS = Math.ceil(WORDS / 3);
const server = await startMockServer({
  scenario: [
    {
      match: { lastUserTextContains: 'stream please' },
      chunkDelayMs: 25,
      reply: { content: [{ type: 'text', text: `${streamText}\n\nstream-finished` }] },
    },
    {
      // A tool that prints 10,000 lines over a few seconds (python3 is here: the recorder needs it).
      match: { lastUserTextContains: 'print rows' },
      reply: {
        content: [
          {
            type: 'tool_use',
            id: 'toolu_rows',
            name: 'Bash',
            input: {
              command: `python3 -u -c 'import time\nfor i in range(10000):\n print("row", i); time.sleep(0.0003)\nprint("rows-printed")'`,
              description: 'Print 10,000 rows',
            },
          },
        ],
      },
    },
    {
      match: { lastToolResultContains: 'rows-printed' },
      reply: { content: [{ type: 'text', text: 'rows-finished' }] },
    },
    {
      repeat: 'forever',
      reply: (request) => {
        const last = JSON.stringify(request.body?.messages?.at(-1) ?? '');
        const n = /quick (\d+)/.exec(last)?.[1] ?? '?';
        return { content: [{ type: 'text', text: `answer ${n} done` }] };
      },
    },
  ],
});
const env = replEnv(home, server.url);
// BENCH_TUI_TRACE=1: the REPL runs with bench/_echo-trace.cjs, and each phase's slowest keys are
// split into waiting to be read, the REPL's handling and the way back to the recorder.
const tracePath = process.env.BENCH_TUI_TRACE ? join(work, 'echo-trace.json') : undefined;
if (tracePath) env.YOKE_BENCH_ECHO_TRACE = tracePath;
const plan = {
  // BENCH_TUI_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the REPL under the same load;
  // bench/_long-tasks.mjs lists the profile's main-thread blocks and which one each slow key of
  // the BENCH_TUI_RAW line (saved to a file) waited behind.
  argv: [
    process.execPath,
    ...(process.env.BENCH_TUI_NODE_ARGS ?? '').split(' ').filter(Boolean),
    ...(tracePath ? ['--require', join(root, 'bench', '_echo-trace.cjs')] : []),
    join(root, 'dist', 'yoke.js'),
    '--trust',
    // The tool phase's command runs without a permission prompt.
    '--allowedTools',
    'Bash(python3:*)',
  ],
  env,
  cwd,
  cols: 100,
  rows: 30,
  keys: 60,
  key_log: tracePath !== undefined,
  // The second streaming phase types a key this often, as a quick typist does (~12 keys a second).
  typing_gap_ms: 80,
  turns: Number(process.env.BENCH_TUI_TURNS ?? 100),
  ready_marker: '╰',
  engine_marker: 'claude-',
  stream_prompt: 'stream please',
  stream_end_marker: 'stream-finished',
  tool_prompt: 'print rows please',
  tool_running_marker: 'row 1',
  tool_end_marker: 'rows-finished',
  // After the RSS figure at `turns`, the session goes on to this many turns (2 messages each).
  long_turns: Number(process.env.BENCH_TUI_LONG_TURNS ?? 500),
};
// Not spawnSync: the mock server answers from this process's event loop.
const run = await new Promise((resolve) => {
  const child = spawn('python3', [join(root, 'bench', 'tui-pty.py')], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.on('close', (status) => resolve({ status, stdout, stderr }));
  child.stdin.end(JSON.stringify(plan));
});
await server.close();
if (run.status !== 0) {
  console.error(`tui: the pty recorder failed: ${run.stderr}`);
  process.exit(1);
}
const r = JSON.parse(run.stdout);
// BENCH_TUI_RAW=1 prints every key's echo time in typing order (to see which keys are slow).
if (process.env.BENCH_TUI_RAW)
  console.log(
    JSON.stringify({
      idle: r.idle_echo_ms,
      streaming: r.streaming_echo_ms,
      streamingSpread: r.streaming_spread_echo_ms,
      tool: r.tool_echo_ms,
      long: r.long_session_echo_ms,
      // [sent at (CLOCK_MONOTONIC ms, as a --cpu-prof profile's startTime / 1000), echo ms] per key
      keyLog: r.key_log,
    }),
  );
const p99 = (values) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.99,
  );
const fmt = (v) => (typeof v === 'number' ? v.toFixed(1) : 'n/a');
console.log(loadLine());
console.log(
  `node dist/yoke.js --trust in a 100x30 pty; the mock streams ${DELTAS} deltas (3 words each) 25 ms apart`,
);
console.log(
  `launch to a usable prompt: ${fmt(r.launch_to_prompt_ms)} ms  target < 200 ms [439 ms]  ${verdict(r.launch_to_prompt_ms < 200)}; engine ready (model shown) ${fmt(r.launch_to_engine_ms)} ms`,
);
for (const [label, values, anchor] of [
  ['idle', r.idle_echo_ms, '[5.0 ms, p99 18.3 ms]'],
  ['while streaming (a burst as it starts)', r.streaming_echo_ms, '[3.9 ms, p99 14.7 ms]'],
  [
    `while streaming (typed ${plan.typing_gap_ms} ms apart${r.spread_ended_before_stream ? '' : '; the answer ended first'})`,
    r.streaming_spread_echo_ms,
    '',
  ],
  ['while a tool prints 10,000 lines', r.tool_echo_ms, ''],
  [`idle after a ${r.long_turns * 2}-message session`, r.long_session_echo_ms, ''],
]) {
  const m = median(values);
  const p = p99(values);
  console.log(
    `keystroke to echo, ${label}: median ${fmt(m)} ms, p99 ${fmt(p)} ms over ${values.length} keys  target < 3 / < 12 ms ${anchor}  ${verdict(m < 3 && p < 12)}`,
  );
}
if (tracePath) printEchoSplit(r, JSON.parse(readFileSync(tracePath, 'utf8')));
// Tokens: the streamed text at about 4 characters a token.
const tokens = Math.round(streamText.length / 4);
const perToken = r.stream_bytes / tokens;
console.log(
  `bytes written while streaming: ${r.stream_bytes} for ~${tokens} tokens = ${perToken.toFixed(1)} per token (${(r.stream_bytes / DELTAS).toFixed(0)} per delta)  target < 10 [88]  ${verdict(perToken < 10)}`,
);
console.log(
  `full-screen clears while streaming: ${r.full_clears}  target 0  ${verdict(r.full_clears === 0)}`,
);
console.log(
  `idle RSS after start: ${fmt(r.rss_after_start_mb)} MB  target < 90 MB [205 MB]  ${verdict(r.rss_after_start_mb < 90)}`,
);
console.log(
  `idle RSS after a ${r.turns * 2}-message session: ${fmt(r.rss_after_turns_mb)} MB  target < 150 MB [318 MB]  ${verdict(r.rss_after_turns_mb < 150)}`,
);
