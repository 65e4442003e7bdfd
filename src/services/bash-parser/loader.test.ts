/**
 * The shell parser's wasm is compiled when it loads, off the main thread (lib/v8-flags.ts), so its
 * first parse runs compiled code: with V8's lazy compilation, the first command line parsed
 * compiled each grammar function it reached on the main thread — 40–75 ms of this thread's CPU
 * on a small machine, where the parse itself takes well under a millisecond. Measured as this
 * thread's CPU time (/proc/thread-self/stat, in 10 ms ticks), which the machine's load does not
 * inflate the way it does wall time. This file's process parses nothing before the test.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadBashParser } from './loader';

/** This thread's user and system CPU time, in ms. */
function threadCpuMs(): number {
  const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const COMMAND =
  'for f in $(git ls-files "*.ts"); do grep -n "TODO" "$f" >> /tmp/out 2>&1 || echo "$f.bak"; done && ' +
  'case "$1" in a|b) x=$((1 + 2));; *) [[ -n $y ]] && cat <<EOF\nhere\nEOF\n;; esac; (cd sub && make -j4) | tee log';

describe('loadBashParser', () => {
  it.runIf(process.platform === 'linux')(
    'leaves its first parse no wasm to compile on the main thread',
    async () => {
      const parser = await loadBashParser();
      const before = threadCpuMs();
      const tree = parser.parse(COMMAND);
      const spent = threadCpuMs() - before;
      expect(tree?.rootNode.hasError).toBe(false);
      // Eager: 0 ticks in every run measured; lazy: 40–50 ms.
      expect(spent).toBeLessThanOrEqual(20);
    },
  );
});
