import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import vm from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { readTransient, readWrappedSource } from './bundle-reads';

const dir = mkdtempSync(join(tmpdir(), 'yoke-bundle-reads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('bundle reads through one shared buffer', () => {
  it("give Module.wrap's text of each file, as the buffer grows and is reused", () => {
    const small = file('small.js', 'module.exports = 1;');
    const big = file('big.js', `module.exports = ${JSON.stringify('x'.repeat(300_000))};`);
    const bytes = file('latin1.js', Buffer.from([0x2f, 0x2f, 0xe9, 0xff, 0x0a, 0x31]));
    for (const path of [small, big, small, bytes, big]) {
      expect(readWrappedSource(path)).toBe(Module.wrap(readFileSync(path, 'latin1')));
    }
  });

  it('give the bytes of a cache, valid until the next read', () => {
    const first = file('first.bin', Buffer.from([1, 2, 3, 4, 5]));
    const second = file('second.bin', Buffer.from([9, 8, 7]));
    const bytes = readTransient(first);
    expect([...bytes]).toEqual([1, 2, 3, 4, 5]);
    expect([...readTransient(second)]).toEqual([9, 8, 7]);
    // The same memory: what a caller must not keep.
    expect([...bytes.subarray(0, 3)]).toEqual([9, 8, 7]);
  });

  it('fail as readFileSync does for a missing file', () => {
    expect(() => readWrappedSource(join(dir, 'absent.js'))).toThrow(/ENOENT/);
    expect(() => readTransient(join(dir, 'absent.bin'))).toThrow(/ENOENT/);
  });

  it('make a source a code cache made from Module.wrap fits, read from the shared buffer', () => {
    const path = file('cached.js', 'function twice(x) { return x * 2 }\n'.repeat(500));
    const made = new vm.Script(Module.wrap(readFileSync(path, 'latin1')), { filename: path });
    const cache = file('cached.v8cache', made.createCachedData());
    const source = readWrappedSource(path);
    const script = new vm.Script(source, { filename: path, cachedData: readTransient(cache) });
    expect(script.cachedDataRejected).toBe(false);
  });
});
