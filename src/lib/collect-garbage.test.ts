import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleChildScript, type ChildScript } from '../testing/child-script';
import { collectGarbageNow } from './collect-garbage';

/**
 * A child run: optionally collects (or leaves `--expose-gc` set, the control), then compiles a
 * script with the code cache in `cacheFile` ('use') or writes one there ('make').
 */
const CHILD_SOURCE = `
import { readFileSync, writeFileSync } from 'node:fs';
import { Script } from 'node:vm';
import { collectGarbageNow } from './collect-garbage';
const [before, action, cacheFile] = process.argv.slice(2);
if (before === 'collect') collectGarbageNow();
if (before === 'leave-flag') process.getBuiltinModule('node:v8').setFlagsFromString('--expose-gc');
const source = 'function twice(x) { return x * 2 }\\n'.repeat(200) + 'twice(21);';
if (action === 'make') {
  const script = new Script(source, { filename: 'cached.js' });
  script.runInThisContext();
  writeFileSync(cacheFile, script.createCachedData());
} else {
  const script = new Script(source, { filename: 'cached.js', cachedData: readFileSync(cacheFile) });
  process.stdout.write(JSON.stringify({ rejected: script.cachedDataRejected }));
}
`;

/**
 * A child started with `--expose-gc` whose global `gc` was taken away (as a program may do to
 * keep it from other code): what collectGarbageNow finds and what it leaves of the flag. Node 20's
 * V8 makes the global `gc` non-configurable, so where `delete` is refused it is overwritten.
 */
const DELETED_GC_SOURCE = `
import { runInNewContext } from 'node:vm';
import { collectGarbageNow } from './collect-garbage';
if (!Reflect.deleteProperty(globalThis, 'gc')) globalThis.gc = undefined;
const flagBefore = runInNewContext('typeof gc');
let target = { payload: 'x'.repeat(1000) };
const ref = new WeakRef(target);
target = undefined;
// A WeakRef made in this task keeps its target until the task ends.
await new Promise((resolve) => setImmediate(resolve));
const collected = collectGarbageNow();
process.stdout.write(JSON.stringify({
  globalGc: typeof globalThis.gc,
  flagBefore,
  collected,
  freed: ref.deref() === undefined,
  flagAfter: runInNewContext('typeof gc'),
}));
`;

let dir = '';
let child: ChildScript | undefined;
let deletedGcChild: ChildScript | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'yoke-collect-garbage-'));
  child = await bundleChildScript(CHILD_SOURCE, import.meta.dirname);
  deletedGcChild = await bundleChildScript(DELETED_GC_SOURCE, import.meta.dirname);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  child?.remove();
  deletedGcChild?.remove();
});

/** Runs the child with a clean environment (no NODE_OPTIONS flags of the test runner). */
function runChild(before: 'collect' | 'leave-flag' | 'nothing', action: 'make' | 'use', cacheFile: string) {
  const out = execFileSync(process.execPath, [child?.path ?? '', before, action, cacheFile], {
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
  });
  return action === 'use' ? (JSON.parse(out) as { rejected: boolean }) : undefined;
}

describe('collectGarbageNow', () => {
  it('collects what nothing refers to any more', async () => {
    let target: object | undefined = { payload: 'x'.repeat(1000) };
    const ref = new WeakRef(target);
    target = undefined;
    // A WeakRef made in this task keeps its target until the task ends.
    await new Promise((resolve) => setImmediate(resolve));
    expect(collectGarbageNow()).toBe(true);
    expect(ref.deref()).toBeUndefined();
  });

  it('leaves gc unexposed, as it was', () => {
    collectGarbageNow();
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });

  it('finds the collector through a new context when started with --expose-gc and gc deleted, leaving the flag on', () => {
    const out = execFileSync(process.execPath, ['--expose-gc', deletedGcChild?.path ?? ''], {
      env: { PATH: process.env.PATH },
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual({
      globalGc: 'undefined',
      flagBefore: 'function',
      collected: true,
      freed: true,
      flagAfter: 'function',
    });
  });

  it('keeps code caches fitting across runs: made before a collection and used after, and the other way round', () => {
    const plain = join(dir, 'plain.cache');
    runChild('nothing', 'make', plain);
    expect(runChild('collect', 'use', plain)).toEqual({ rejected: false });

    const afterCollect = join(dir, 'after-collect.cache');
    runChild('collect', 'make', afterCollect);
    expect(runChild('nothing', 'use', afterCollect)).toEqual({ rejected: false });

    // The control: a flag left changed makes V8 refuse the same cache.
    expect(runChild('leave-flag', 'use', plain)).toEqual({ rejected: true });
  });
});
