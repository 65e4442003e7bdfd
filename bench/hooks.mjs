// Hook figures, through the real hook runner (`createHookRunner`) and real `sh` scripts.
// (a) What one command hook costs a tool call: a PreToolUse hook that reads its input and exits,
//     median of RUNS calls (process start, JSON in, exit, verdict).
// (b) How soon a hanging hook is stopped: a PreToolUse hook with `timeout: 1` that starts a child
//     and waits on it forever, timed until the runner returns without its verdict, median of
//     HANG_RUNS. The runner stops the hook's process group at the timeout and waits at most a
//     short pipe grace for the output to close. Target: the timeout plus 500 ms. (This figure used
//     to be a timing threshold inside a unit test; tests stay free of timing.)
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSources, loadLine, median, verdict } from './_bundle.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const HANG_RUNS = Number(process.env.BENCH_HANG_RUNS ?? 3);
const TIMEOUT_S = 1;
const TARGET_HANG_MS = TIMEOUT_S * 1000 + 500;

const y = await importSources('hooks', `export { createHookRunner } from './src/hooks/runner';`);

console.log(loadLine());

const dir = mkdtempSync(join(tmpdir(), 'yoke-bench-hooks-'));
const script = (name, body) => {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
};

const runnerFor = (command, timeout) =>
  y.createHookRunner({
    settingsHooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command, timeout }] }] },
    base: () => ({
      session_id: 'bench',
      transcript_path: join(dir, 'bench.jsonl'),
      cwd: dir,
      permission_mode: 'default',
    }),
    env: { PATH: process.env.PATH },
    onMessage: () => {},
  });

const call = { toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: 'toolu_1', access: 'shell' };
const signal = new AbortController().signal;

/** Median milliseconds of `runs` PreToolUse calls of `runner`, after one warm-up call. */
async function time(runner, runs) {
  await runner.preToolUse(call, signal);
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await runner.preToolUse(call, signal);
    times.push(performance.now() - t0);
  }
  return { median: median(times), min: Math.min(...times) };
}

try {
  const quick = await time(runnerFor(script('quick.sh', 'cat > /dev/null'), 10), RUNS);
  console.log(
    `one command hook per tool call (PreToolUse, sh reads its input and exits): median ${quick.median.toFixed(1)} ms, ` +
      `min ${quick.min.toFixed(1)} ms over ${RUNS} calls`,
  );
  const hang = await time(runnerFor(script('hang.sh', 'sleep 100 &\nwait'), TIMEOUT_S), HANG_RUNS);
  console.log(
    `a hanging hook with timeout ${TIMEOUT_S} s, stopped with its child: returns after median ${hang.median.toFixed(0)} ms ` +
      `over ${HANG_RUNS} calls  target < ${TARGET_HANG_MS} ms  ${verdict(hang.median < TARGET_HANG_MS)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
