// For bench/tui.mjs with BENCH_TUI_TRACE=1: where each phase's slowest keys spent their time,
// from the recorder's key log ([sent at, echo ms], CLOCK_MONOTONIC ms) and the REPL's trace
// (bench/_echo-trace.cjs: when a '~' was read from stdin and when an echo was written).

const PHASES = [
  ['idle', 'idle_echo_ms'],
  ['streaming burst', 'streaming_echo_ms'],
  ['streaming, typed apart', 'streaming_spread_echo_ms'],
  ['tool', 'tool_echo_ms'],
  ['long session', 'long_session_echo_ms'],
];

/** Per key: [total, waiting to be read, in the REPL, back to the recorder] (ms), or null. */
export function splitKeys(keyLog, trace) {
  const reads = trace.filter(([kind]) => kind === 'read').map(([, at]) => at);
  const writes = trace.filter(([kind]) => kind === 'wrote').map(([, at]) => at);
  let r = 0;
  let w = 0;
  return keyLog.map(([sent, echo]) => {
    // Keys go one at a time (the next after the echo): the first read after the send is its own
    // (both sides read CLOCK_MONOTONIC; the key before was read before its echo, so before this send).
    while (r < reads.length && reads[r] < sent) r++;
    const read = reads[r];
    if (read === undefined) return null;
    while (w < writes.length && writes[w] < read) w++;
    const wrote = writes[w];
    if (wrote === undefined) return null;
    return [echo, read - sent, wrote - read, sent + echo - wrote];
  });
}

export function printEchoSplit(result, trace) {
  console.log(
    'slowest keys of each phase, ms = waiting to be read (main thread busy) + in the REPL + back to the recorder:',
  );
  const split = splitKeys(result.key_log ?? [], trace);
  let offset = 0;
  const f = (v) => v.toFixed(1);
  for (const [label, field] of PHASES) {
    const count = result[field]?.length ?? 0;
    const keys = split.slice(offset, offset + count).filter(Boolean);
    offset += count;
    const slowest = [...keys].sort((a, b) => b[0] - a[0]).slice(0, 3);
    const text = slowest
      .map(([total, wait, own, back]) => `${f(total)} = ${f(wait)} + ${f(own)} + ${f(back)}`)
      .join(', ');
    console.log(`  ${label}: ${text}`);
  }
}
