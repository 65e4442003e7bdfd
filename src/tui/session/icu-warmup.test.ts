import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleChildScript, type ChildScript } from '../../testing/child-script';
import { startIcuOffThread } from './icu-warmup';

/**
 * A fresh process (this one's ICU started long ago) that makes its first grapheme segmenter on the
 * main thread, after `startIcuOffThread` when asked, and prints the fresh memory pages the main
 * thread faulted in for it (/proc/thread-self/stat: this thread's alone, not the worker's): a
 * figure of how much of ICU's start was left to it that does not depend on the machine's load.
 */
const CHILD = `
import { readFileSync } from 'node:fs';
import { startIcuOffThread } from './icu-warmup';
const faults = () => Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ')[7]);
// The REPL's terminal keeps its event loop alive; the worker does not (it is unref'd).
const alive = setInterval(() => {}, 1000);
const offThread = process.argv[2] === 'off-thread' ? await startIcuOffThread(new AbortController().signal) : false;
clearInterval(alive);
const before = faults();
[...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment('a')];
console.log(JSON.stringify({ offThread, faults: faults() - before }));
`;

let child: ChildScript;
beforeAll(async () => {
  child = await bundleChildScript(CHILD, __dirname);
});
afterAll(() => child?.remove());

function firstSegmenter(mode: 'off-thread' | 'main'): Promise<{ offThread: boolean; faults: number }> {
  return new Promise((resolve, reject) => {
    const run = spawn(process.execPath, [child.path, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    run.stdout.on('data', (chunk) => {
      out += chunk;
    });
    run.stderr.on('data', (chunk) => {
      err += chunk;
    });
    run.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`exit ${code}: ${err}`)),
    );
  });
}

describe('startIcuOffThread', () => {
  it.runIf(process.platform === 'linux')(
    "leaves the main thread's first segmenter a small part of ICU's start",
    async () => {
      const main = await firstSegmenter('main');
      const offThread = await firstSegmenter('off-thread');
      expect(offThread.offThread).toBe(true);
      // ~560 fresh pages when the main thread starts ICU, ~40 after a worker has (measured).
      expect(main.faults).toBeGreaterThan(200);
      expect(offThread.faults).toBeLessThan(main.faults / 4);
    },
    30_000,
  );

  it('lets input queued meanwhile run before it starts the worker', async () => {
    const log: string[] = [];
    const starting = startIcuOffThread(new AbortController().signal).then((done) => log.push(`icu ${done}`));
    setImmediate(() => log.push('key'));
    await starting;
    expect(log).toEqual(['key', 'icu true']);
  });

  it('starts nothing once the session is closing, and stops a worker the session outlives no more', async () => {
    const closed = new AbortController();
    closed.abort();
    expect(await startIcuOffThread(closed.signal)).toBe(false);

    const closing = new AbortController();
    const starting = startIcuOffThread(closing.signal);
    // Closed once the worker is being started: it is terminated, and says it did not finish.
    setImmediate(() => setImmediate(() => setImmediate(() => setImmediate(() => closing.abort()))));
    expect(await starting).toBe(false);
  });
});
