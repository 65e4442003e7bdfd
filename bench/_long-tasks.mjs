// Shared by the bench scripts (run.mjs skips files starting with `_`), and a command of its own:
//   node bench/_long-tasks.mjs <profile.cpuprofile> [min-ms] [keylog.json]
// The main-thread blocks of a `--cpu-prof` profile: every stretch of samples with no `(idle)` one
// between them that lasts `min-ms` (default 4) or more, with what ran in it (self time by
// function and bundle module, and the stack of its heaviest frame) — a key that lands in one
// waits for its end. With bench/tui.mjs's key log (BENCH_TUI_RAW=1: [sent at ms, echo ms] per
// key, on the profile's clock) it also says which block each slow key waited behind.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where each line of an unminified esbuild bundle comes from (esbuild marks each module with a `// path` line). */
function moduleIndex(bundlePath) {
  let text;
  try {
    text = readFileSync(bundlePath, 'utf8');
  } catch {
    return () => null;
  }
  const marks = [];
  text.split('\n').forEach((line, index) => {
    const m = /^\/\/ ((?:node_modules|src|scripts)\/\S+)$/.exec(line);
    if (m) marks.push([index, m[1]]);
  });
  return (line) => {
    let lo = 0;
    let hi = marks.length - 1;
    let found = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (marks[mid][0] <= line) {
        found = marks[mid][1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

/** A readable name for a profile frame: function, and the source module when the bundle says it. */
function frameLabeller() {
  const indexes = new Map();
  return (frame) => {
    const fn = frame.functionName || '(anonymous)';
    if (!frame.url) return fn;
    const path = frame.url.replace(/^file:\/\//, '');
    if (!indexes.has(path)) indexes.set(path, moduleIndex(path));
    const module = indexes.get(path)(frame.lineNumber);
    const where = module ?? path.replace(/^.*\/(dist|node_modules)\//, '$1/');
    return `${fn} ${where.replace(/^node_modules\//, '')}:${frame.lineNumber + 1}`;
  };
}

/**
 * The blocks of a profile: [{ startMs, endMs, ms, top: [[label, ms]], stack: [label] }], `startMs`
 * on the profile's clock (CLOCK_MONOTONIC, ms).
 */
export function longTasks(profilePath, minMs = 4) {
  const profile = JSON.parse(readFileSync(profilePath, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = frameLabeller();
  const tasks = [];
  let t = profile.startTime;
  let open = null;
  const close = (end) => {
    if (open && (end - open.start) / 1000 >= minMs) {
      const top = [...open.self].sort((a, b) => b[1] - a[1]);
      const stack = [];
      for (let id = open.heaviest.get(top[0][0]); id !== undefined; id = parent.get(id)) {
        const frame = byId.get(id).callFrame;
        if (frame.functionName !== '(root)') stack.push(label(frame));
      }
      tasks.push({
        startMs: open.start / 1000,
        endMs: end / 1000,
        ms: (end - open.start) / 1000,
        top: top.slice(0, 6).map(([l, us]) => [l, us / 1000]),
        stack,
      });
    }
    open = null;
  };
  profile.samples.forEach((id, i) => {
    const before = t;
    t += profile.timeDeltas[i] ?? 0;
    const frame = byId.get(id).callFrame;
    if (frame.functionName === '(idle)') {
      close(before);
      return;
    }
    // A sample stands for the time since the one before it.
    open ??= { start: before, self: new Map(), heaviest: new Map() };
    const l = label(frame);
    open.self.set(l, (open.self.get(l) ?? 0) + (profile.timeDeltas[i] ?? 0));
    if (!open.heaviest.has(l)) open.heaviest.set(l, id);
  });
  close(t);
  return { tasks, startMs: profile.startTime / 1000 };
}

/** Lines describing the blocks, and which one each key slower than `slowMs` waited behind. */
export function describeLongTasks(profilePath, { minMs = 4, keyLog = [], slowMs = 5 } = {}) {
  const { tasks, startMs } = longTasks(profilePath, minMs);
  const lines = [`${tasks.length} blocks of ${minMs} ms or more:`];
  for (const task of tasks) {
    lines.push(`  at ${((task.startMs - startMs) / 1000).toFixed(3)} s: ${task.ms.toFixed(1)} ms`);
    for (const [l, ms] of task.top) lines.push(`      ${ms.toFixed(1).padStart(6)} ms  ${l}`);
    lines.push(`      heaviest's stack: ${task.stack.slice(0, 14).join(' < ')}`);
  }
  const slow = keyLog.filter(([, echo]) => echo >= slowMs);
  if (slow.length) lines.push(`${slow.length} keys of ${slowMs} ms or more:`);
  for (const [sent, echo] of slow) {
    const behind = tasks.filter((task) => task.endMs > sent && task.startMs < sent + echo);
    const what = behind.map(
      (task) => `${task.ms.toFixed(1)} ms at ${((task.startMs - startMs) / 1000).toFixed(3)} s`,
    );
    lines.push(
      `  key at ${((sent - startMs) / 1000).toFixed(3)} s: ${echo.toFixed(1)} ms, behind ${what.join(', ') || 'no block'}`,
    );
  }
  return lines;
}

if (process.argv[1] === join(dirname(fileURLToPath(import.meta.url)), '_long-tasks.mjs')) {
  const [profilePath, minMs, keyLogPath] = process.argv.slice(2);
  if (!profilePath) {
    console.error('usage: node bench/_long-tasks.mjs <profile.cpuprofile> [min-ms] [keylog.json]');
    process.exit(2);
  }
  const keyLog = keyLogPath ? JSON.parse(readFileSync(keyLogPath, 'utf8')).keyLog : [];
  console.log(describeLongTasks(profilePath, { minMs: Number(minMs ?? 4), keyLog }).join('\n'));
}
