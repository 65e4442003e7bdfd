/**
 * scripts/esm-interop-memo.mjs memoizes esbuild's `__toESM` in the Ink bundle: every ES module
 * importing one CommonJS module must get one shared copy of its exports, with the same values
 * as esbuild's own, and a module that was still loading when first copied (a require cycle) must
 * be copied again once it has more properties. Built with esbuild as scripts/build.mjs builds,
 * minified and not, and run.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { memoizeToEsm } from '../../scripts/esm-interop-memo.mjs';

const dir = mkdtempSync(join(tmpdir(), 'yoke-esm-interop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SOURCES: Record<string, string> = {
  // A CommonJS module two ES modules import, default and by name.
  'shared.cjs': 'exports.value = 41; exports.add = (n) => n + 1;',
  'one.mjs': "import * as ns from './shared.cjs'; import shared from './shared.cjs'; export { ns, shared };",
  'two.mjs':
    "import * as ns from './shared.cjs'; import { value } from './shared.cjs'; export { ns, value };",
  // A cycle: the entry loads looping.cjs first, which requires early.mjs before it sets `late`,
  // and early.mjs imports it back (getting it half loaded); after.mjs imports it once loaded.
  'looping.cjs': "exports.early = 1; require('./early.mjs'); exports.late = 2;",
  'early.mjs': "import * as ns from './looping.cjs'; export const seenEarly = ns;",
  'after.mjs': "import * as ns from './looping.cjs'; export const seenAfter = ns;",
  'entry.mjs': `import './looping.cjs'; import * as one from './one.mjs'; import * as two from './two.mjs';
import * as early from './early.mjs'; import * as after from './after.mjs';
export { one, two, early, after };`,
};
for (const [name, text] of Object.entries(SOURCES)) writeFileSync(join(dir, name), text);

type Built = {
  one: { ns: Record<string, unknown>; shared: Record<string, unknown> };
  two: { ns: Record<string, unknown>; value: number };
  early: { seenEarly: Record<string, unknown> };
  after: { seenAfter: Record<string, unknown> };
};

async function bundle(minify: boolean, memoize: boolean): Promise<Built> {
  const outfile = join(dir, `out-${minify}-${memoize}.cjs`);
  await build({
    entryPoints: [join(dir, 'entry.mjs')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    minify,
    outfile,
    logLevel: 'silent',
  });
  if (memoize) writeFileSync(outfile, memoizeToEsm(readFileSync(outfile, 'utf8'), outfile));
  return createRequire(outfile)(outfile) as Built;
}

describe.each([false, true])('memoizeToEsm (minified: %s)', (minify) => {
  it('gives every importer one copy of a CommonJS module, with the values esbuild gives', async () => {
    const plain = await bundle(minify, false);
    const memoized = await bundle(minify, true);
    // esbuild's own helper copies per importer: what the memo saves.
    expect(plain.one.ns).not.toBe(plain.two.ns);
    expect(memoized.one.ns).toBe(memoized.two.ns);
    for (const built of [plain, memoized]) {
      expect(built.one.ns.value).toBe(41);
      expect((built.one.ns.add as (n: number) => number)(1)).toBe(2);
      expect(built.one.shared).toEqual({ value: 41, add: expect.any(Function) });
      expect(built.two.value).toBe(41);
    }
    expect(Object.keys(memoized.one.ns).sort()).toEqual(Object.keys(plain.one.ns).sort());
  });

  it('copies a module again once it has gained properties (one still loading in a require cycle)', async () => {
    const memoized = await bundle(minify, true);
    expect(Object.keys(memoized.early.seenEarly).sort()).toEqual(['default', 'early']);
    expect(Object.keys(memoized.after.seenAfter).sort()).toEqual(['default', 'early', 'late']);
    expect(memoized.after.seenAfter.late).toBe(2);
  });
});

it('refuses a bundle whose helper it does not recognise, rather than leave it unmemoized', () => {
  expect(() => memoizeToEsm('var x = 1;', 'plain.js')).toThrow(/no longer defines esbuild's __toESM/);
});
