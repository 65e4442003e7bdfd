// A preload for the REPL under bench/tui.mjs (BENCH_TUI_TRACE=1): records when each typed '~'
// reaches the REPL's stdin and when the REPL writes an echo, on the recorder's clock
// (CLOCK_MONOTONIC ms), into the file YOKE_BENCH_ECHO_TRACE names at exit. The bench then splits
// each slow key's time into waiting to be read (the main thread busy), the REPL's own handling,
// and the way back to the recorder (the pty and the recorder's own scheduling), so a slow key
// that the REPL answered at once is not blamed on it.
const { Readable } = require('node:stream');
const { writeFileSync } = require('node:fs');

const file = process.env.YOKE_BENCH_ECHO_TRACE;
const events = [];
const now = () => Number(process.hrtime.bigint()) / 1e6;

const push = Readable.prototype.push;
Readable.prototype.push = function pushTraced(chunk, encoding) {
  if (this === process.stdin && chunk && String(chunk).includes('~')) events.push(['read', now()]);
  return push.call(this, chunk, encoding);
};
const write = process.stdout.write;
process.stdout.write = function writeTraced(chunk, ...rest) {
  if (chunk && String(chunk).includes('~')) events.push(['wrote', now()]);
  return write.call(this, chunk, ...rest);
};
process.on('exit', () => {
  if (file) writeFileSync(file, JSON.stringify(events));
});
