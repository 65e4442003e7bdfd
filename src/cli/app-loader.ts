/**
 * Loads the app bundle (`dist/app.js`) through a V8 code cache. Parsing and compiling the bundle
 * is most of a cold start's own work (Node 20 has no compile cache for user code), so the
 * entry compiles it with `vm.Script` and hands V8 the bytecode a previous start saved. The cache
 * is saved once the app reports its first reply to the user, so it holds exactly the functions a
 * start needs. A missing, stale or corrupt cache is only slower: V8 checks it and we fall back
 * to compiling; every cache failure is silent.
 *
 * This file is bundled into the entry, so it may import Node built-ins (cheap ones) only.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import { v8FlagsChanged } from '../lib/v8-flags';

/** What the app bundle exports (src/cli/run.ts). */
export type AppExports = typeof import('./run');

/** How this start compiled the app: from a saved cache, or from source (and why). */
export type CodeCacheState = 'used' | 'missing' | 'rejected' | 'off';

export type LoadedApp = {
  run: AppExports['run'];
  codeCache: CodeCacheState;
  /** Saves the code cache when this start had none or V8 refused it; a no-op otherwise. */
  saveCodeCache(): void;
};

type CacheEnv = Readonly<Record<string, string | undefined>>;

/** Where caches may live: next to the bundle (an install the user owns), else the user cache. */
export function codeCacheDirs(appPath: string, env: CacheEnv): string[] {
  const userCache = env.XDG_CACHE_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.cache');
  return [join(dirname(appPath), '.cache'), join(userCache, 'yoke')];
}

/**
 * One file per bundle build, Node version and CPU: V8 refuses a cache from another V8 anyway,
 * and the name keeps two Node versions from overwriting each other's cache on every start.
 */
export function codeCacheFileName(buildId: string): string {
  return `app-${buildId}-${process.version}-${process.arch}.v8cache`;
}

function readCache(dirs: readonly string[], name: string): { data: Buffer; dir: string } | undefined {
  for (const dir of dirs) {
    try {
      return { data: readFileSync(join(dir, name)), dir };
    } catch {
      // Not there (or unreadable): try the next place.
    }
  }
  return undefined;
}

/** Writes atomically (temp file, rename) so a concurrent start never reads half a cache. */
function writeCache(dirs: readonly string[], name: string, data: Buffer): void {
  for (const dir of dirs) {
    const temp = join(dir, `${name}.${process.pid}.tmp`);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(temp, data, { mode: 0o600 });
      renameSync(temp, join(dir, name));
    } catch {
      try {
        unlinkSync(temp);
      } catch {
        // Never created.
      }
      continue;
    }
    removeStaleCaches(dir, name);
    return;
  }
}

/** Caches of other builds or Node versions in the same folder are dead weight. */
function removeStaleCaches(dir: string, keep: string): void {
  try {
    for (const entry of readdirSync(dir)) {
      if (entry !== keep && entry.startsWith('app-') && entry.endsWith('.v8cache'))
        unlinkSync(join(dir, entry));
    }
  } catch {
    // Another start may be cleaning up too.
  }
}

export function loadApp(appPath: string, buildId: string, env: CacheEnv): LoadedApp {
  // The bundle is ASCII (esbuild escapes the rest), so latin1 reads it without UTF-8 decoding.
  const source = readFileSync(appPath, 'latin1');
  const enabled = env.YOKE_CODE_CACHE !== 'off';
  const dirs = enabled ? codeCacheDirs(appPath, env) : [];
  const name = codeCacheFileName(buildId);
  const cached = enabled ? readCache(dirs, name) : undefined;
  const script = new vm.Script(Module.wrap(source), {
    filename: appPath,
    cachedData: cached?.data,
  });
  const app = { exports: {} as AppExports };
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: unknown,
    filename: string,
    dirname: string,
  ) => void;
  wrapper.call(app.exports, app.exports, createRequire(appPath), app, appPath, dirname(appPath));

  const codeCache: CodeCacheState = !enabled
    ? 'off'
    : cached === undefined
      ? 'missing'
      : script.cachedDataRejected
        ? 'rejected'
        : 'used';
  let needsSave = codeCache === 'missing' || codeCache === 'rejected';
  return {
    run: app.exports.run,
    codeCache,
    saveCodeCache() {
      // A cache made after a flag change would not fit the next start; a later start saves one.
      if (!needsSave || v8FlagsChanged()) return;
      needsSave = false;
      // A refused cache is replaced where it was found; a new one goes to the first place we can write.
      const targets = cached ? [cached.dir, ...dirs.filter((d) => d !== cached.dir)] : dirs;
      writeCache(targets, name, script.createCachedData());
    },
  };
}
