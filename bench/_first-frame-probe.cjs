// Preloaded with `node --require` by bench/first-frame.mjs: load-independent figures for a REPL's
// launch to its first frame. It watches what is written to fd 1 for the prompt box's bottom
// border ('╰') and records, at that write: CPU time (user + system), minor page faults, ms since
// the process started, and (counted two seconds later, since GC entries arrive late) the
// collections that ran before it. Results go as JSON to FIRST_FRAME_PROBE_OUT, then the process
// exits the way a user's Ctrl+D would not: process.exit, so the late cache save still runs.
const { PerformanceObserver, performance } = require('node:perf_hooks');
const { Duplex } = require('node:stream');
const { readFileSync, writeFileSync } = require('node:fs');

const out = process.env.FIRST_FRAME_PROBE_OUT;
const gcs = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcs.push({ at: entry.startTime, ms: entry.duration, kind: entry.detail?.kind ?? entry.kind });
  }
}).observe({ entryTypes: ['gc'] });

let frame;
// A terminal's stream is a net.Socket: a Duplex, whose write is its own copy of Writable's.
const write = Duplex.prototype.write;
Duplex.prototype.write = function probedWrite(chunk, ...rest) {
  if (frame === undefined && this.fd === 1 && String(chunk).includes('╰')) {
    const cpu = process.cpuUsage();
    const usage = process.resourceUsage();
    const thread = mainThreadSchedstat();
    frame = {
      ms: performance.now(),
      cpuMs: (cpu.user + cpu.system) / 1000,
      userMs: cpu.user / 1000,
      systemMs: cpu.system / 1000,
      minorFaults: usage.minorPageFault,
      ...thread,
    };
    setTimeout(report, Number(process.env.FIRST_FRAME_PROBE_WAIT_MS ?? 2500)).unref?.();
  }
  return write.call(this, chunk, ...rest);
};

/**
 * The main thread's own CPU time and its wait for a CPU, from Linux's schedstat (ns): V8's
 * background threads (compilers, GC helpers) are left out, and so is most of what load adds.
 */
function mainThreadSchedstat() {
  try {
    const [onCpu, waiting] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ');
    return { mainMs: Number(onCpu) / 1e6, waitMs: Number(waiting) / 1e6 };
  } catch {
    return {};
  }
}

function report() {
  // kind: 1 scavenge (minor), 2 mark-compact (major), 4 incremental marking, 8 weak callbacks.
  const before = gcs.filter((g) => g.at < frame.ms);
  const after = gcs.filter((g) => g.at >= frame.ms);
  const sum = (list) => Math.round(list.reduce((s, g) => s + g.ms, 0) * 10) / 10;
  const cpu = process.cpuUsage();
  const result = {
    ...frame,
    scavenges: before.filter((g) => g.kind === 1).length,
    gcBefore: before.length,
    gcBeforeMs: sum(before),
    gcAfter: after.map((g) => `${g.kind}:${g.ms.toFixed(1)}`).join(' '),
    cpuAtReportMs: (cpu.user + cpu.system) / 1000,
  };
  if (out) writeFileSync(out, `${JSON.stringify(result)}\n`, { flag: 'a' });
  process.exit(0);
}
