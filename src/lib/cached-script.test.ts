import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeCacheFileName, runCachedScript } from './cached-script';

/** A stand-in for dist/app.js: a CommonJS script exporting `run`, big enough to be worth caching. */
function fakeApp(): { appPath: string; root: string } {
  const root = mkdtempSync(join(tmpdir(), 'yoke-cached-script-'));
  const helpers = Array.from({ length: 200 }, (_, i) => `function helper${i}(x) { return x * ${i} + 1; }`);
  const source = `${helpers.join('\n')}
exports.run = async (argv) => helper3(argv.length) + require('node:path').basename(__filename).length;
`;
  const appPath = join(root, 'app.js');
  writeFileSync(appPath, source);
  return { appPath, root };
}

/** Loads like the entry loads dist/app.js. */
const load = (path: string, id: string, env: Record<string, string>) =>
  runCachedScript<{ run(argv: string[]): Promise<number> }>(path, { name: 'app', id }, env);

const env = (root: string) => ({ XDG_CACHE_HOME: join(root, 'user-cache'), HOME: root });
/** The flag state lib/v8-flags.ts keeps on globalThis. */
const flagState = () => {
  const holder = globalThis as Record<
    symbol,
    { baseline: boolean; beforeChange: (() => void)[] } | undefined
  >;
  holder[Symbol.for('yoke.v8Flags')] ??= { baseline: false, beforeChange: [] };
  return holder[Symbol.for('yoke.v8Flags')] as { baseline: boolean };
};

const cacheFiles = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.v8cache')) : [];

describe('runCachedScript', () => {
  // V8 keeps compiled scripts in memory, so a second load of the same source in this process
  // never looks at the saved cache; that a fresh process uses it is checked end to end
  // (test/e2e/code-cache.test.ts).
  it('compiles from source first and saves the cache next to the bundle', async () => {
    const { appPath, root } = fakeApp();
    const first = load(appPath, 'build1', env(root));
    expect(first.codeCache).toBe('missing');
    expect(await first.exports.run(['a', 'b'])).toBe(3 * 2 + 1 + 'app.js'.length);
    first.saveCodeCache();
    expect(cacheFiles(join(root, '.cache'))).toEqual([codeCacheFileName({ name: 'app', id: 'build1' })]);
  });

  it('survives a corrupt cache: compiles from source and replaces it', async () => {
    const { appPath, root } = fakeApp();
    const file = join(root, '.cache', codeCacheFileName({ name: 'app', id: 'b' }));
    mkdirSync(join(root, '.cache'));
    writeFileSync(file, Buffer.from('definitely not V8 bytecode'));

    const app = load(appPath, 'b', env(root));
    expect(app.codeCache).toBe('rejected');
    expect(await app.exports.run([])).toBe(1 + 'app.js'.length);
    app.saveCodeCache();
    expect(readFileSync(file).length).toBeGreaterThan(1000);
  });

  it('falls back to the user cache folder when the bundle folder cannot take one', () => {
    const { appPath, root } = fakeApp();
    writeFileSync(join(root, '.cache'), 'a file where the cache folder would go');
    load(appPath, 'b', env(root)).saveCodeCache();
    expect(cacheFiles(join(root, 'user-cache', 'yoke'))).toEqual([
      codeCacheFileName({ name: 'app', id: 'b' }),
    ]);
  });

  it('removes caches of other builds when it saves one, but not other Node versions or bundles', () => {
    const { appPath, root } = fakeApp();
    load(appPath, 'old', env(root)).saveCodeCache();
    const dir = join(root, '.cache');
    const otherNode = 'app-new-v18.0.0-x64.v8cache';
    const otherBundle = 'app-more-old-v20.0.0-x64.v8cache';
    writeFileSync(join(dir, otherNode), 'x');
    writeFileSync(join(dir, otherBundle), 'x');
    const app = load(appPath, 'new', env(root));
    expect(app.codeCache).toBe('missing');
    app.saveCodeCache();
    expect(cacheFiles(dir).sort()).toEqual(
      [codeCacheFileName({ name: 'app', id: 'new' }), otherBundle, otherNode].sort(),
    );
  });

  it('neither reads nor writes a cache with YOKE_CODE_CACHE=off, and saves at most once', () => {
    const { appPath, root } = fakeApp();
    const off = load(appPath, 'b', { ...env(root), YOKE_CODE_CACHE: 'off' });
    expect(off.codeCache).toBe('off');
    off.saveCodeCache();
    expect(cacheFiles(join(root, '.cache'))).toEqual([]);

    const app = load(appPath, 'b', env(root));
    app.saveCodeCache();
    const file = join(root, '.cache', codeCacheFileName({ name: 'app', id: 'b' }));
    writeFileSync(file, 'x');
    app.saveCodeCache();
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  it('saves nothing once the V8 flags changed at run time, since the next start could not use it', () => {
    const { appPath, root } = fakeApp();
    const app = load(appPath, 'b', env(root));
    // As preferBaselineWasm records a switch (without switching V8 in this test process).
    const flags = flagState();
    flags.baseline = true;
    try {
      app.saveCodeCache();
      expect(cacheFiles(join(root, '.cache'))).toEqual([]);
      // A bundle read after the switch keeps a cache of its own, named for the flags.
      load(appPath, 'b', env(root)).saveCodeCache();
      expect(cacheFiles(join(root, '.cache'))).toEqual([codeCacheFileName({ name: 'app-liftoff', id: 'b' })]);
    } finally {
      flags.baseline = false;
    }
  });

  it('lets the warm-up save a provisional cache that the first real run replaces', async () => {
    const { appPath, root } = fakeApp();
    const dir = join(root, '.cache');
    const warmName = codeCacheFileName({ name: 'app', id: 'b' }, 'warm');
    load(appPath, 'b', { ...env(root), YOKE_CODE_CACHE: 'warm' }).saveCodeCache();
    expect(cacheFiles(dir)).toEqual([warmName]);

    const firstRun = load(appPath, 'b', env(root));
    expect(firstRun.codeCache).toBe('warm');
    expect(await firstRun.exports.run([])).toBe(1 + 'app.js'.length);
    firstRun.saveCodeCache();
    expect(cacheFiles(dir)).toEqual([codeCacheFileName({ name: 'app', id: 'b' })]);
  });

  it("serves a REPL's first launch from a stand-in's cache until it saves its own, which leaves the stand-in's", async () => {
    const { appPath, root } = fakeApp();
    const dir = join(root, '.cache');
    const other = codeCacheFileName({ name: 'app-other', id: 'b' });
    const repl = codeCacheFileName({ name: 'app-repl', id: 'b' });
    runCachedScript(appPath, { name: 'app-other', id: 'b' }, env(root)).saveCodeCache();
    expect(cacheFiles(dir)).toEqual([other]);

    const loadRepl = () =>
      runCachedScript<{ run(argv: string[]): Promise<number> }>(
        appPath,
        { name: 'app-repl', id: 'b', standIn: 'app-other' },
        env(root),
      );
    const first = loadRepl();
    expect(first.codeCache).toBe('warm');
    expect(await first.exports.run([])).toBe(1 + 'app.js'.length);
    first.saveCodeCache();
    expect(cacheFiles(dir).sort()).toEqual([other, repl].sort());
    expect(loadRepl().codeCache).toBe('used');
  });

  it('without a stand-in of its own kind, a cache of another name is not used', () => {
    const { appPath, root } = fakeApp();
    runCachedScript(appPath, { name: 'app-other', id: 'b' }, env(root)).saveCodeCache();
    expect(runCachedScript(appPath, { name: 'app-repl', id: 'b' }, env(root)).codeCache).toBe('missing');
  });
});
