/**
 * Runs a CommonJS bundle through a V8 code cache. Parsing and compiling a bundle is most of a
 * cold start's own work (Node 20 has no compile cache for user code), so the bundle is compiled
 * with `vm.Script` from the bytecode a previous run saved. A missing, stale or corrupt cache is
 * only slower: V8 checks it and compiles from source instead; every cache failure is silent.
 *
 * Caches live next to the bundle (`dist/.cache/`, an install the user owns) or else in the user
 * cache folder, one file per bundle build, Node version and CPU. V8 itself checks only the
 * source length, so the build id in the name is what keeps a rebuilt bundle from running another
 * build's bytecode. V8 also refuses a cache made under other flags, so the flags' tag
 * (lib/v8-flags.ts) is part of the name, and a cache is saved only under the flags it was read with.
 *
 * Bundled into the entry too, so it imports cheap Node built-ins only.
 */
import { mkdirSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import { readTransient, readWrappedSource } from './bundle-reads';
import { v8FlagsTag } from './v8-flags';

/**
 * How a run compiled the bundle: from a cache a run saved (`used`), from the one the build's
 * warm-up saved (`warm`, replaced by this run's own), or from source (and why).
 */
export type CodeCacheState = 'used' | 'warm' | 'missing' | 'rejected' | 'off';

export type CachedScript<Exports> = {
  exports: Exports;
  codeCache: CodeCacheState;
  /**
   * Saves the code cache when this run had none or V8 refused it (a no-op otherwise), with the
   * functions compiled so far: call it once the work worth caching has run.
   */
  saveCodeCache(): void;
};

/**
 * `name` prefixes the cache file (stale ones of the same name are removed); `id` is the build's.
 * `standIn` names another cache of the same script that serves, as a warm-up's does, until this
 * one is saved (a REPL's first launch: the build cannot warm a REPL, which needs a terminal).
 */
export type ScriptIdentity = { name: string; id: string; standIn?: string };

type CacheEnv = Readonly<Record<string, string | undefined>>;

/** Where caches may live: in the install (`<distDir>/.cache`), else the user cache folder. */
export function codeCacheDirs(distDir: string, env: CacheEnv): string[] {
  const userCache = env.XDG_CACHE_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.cache');
  return [join(distDir, '.cache'), join(userCache, 'yoke')];
}

/**
 * `warm`: saved by the build's warm-up (scripts/warm-code-cache.mjs, `YOKE_CODE_CACHE=warm`). It
 * serves until a real run saves its own, which then holds what real runs compile.
 */
export function codeCacheFileName(identity: ScriptIdentity, kind: 'final' | 'warm' = 'final'): string {
  const suffix = kind === 'warm' ? '.warm.v8cache' : '.v8cache';
  return `${identity.name}-${identity.id}-${process.version}-${process.arch}${suffix}`;
}

function readCache(dirs: readonly string[], name: string): { data: Buffer; dir: string } | undefined {
  for (const dir of dirs) {
    try {
      return { data: readTransient(join(dir, name)), dir };
    } catch {
      // Not there (or unreadable): try the next place.
    }
  }
  return undefined;
}

/** Writes atomically (temp file, rename) so a concurrent start never reads half a cache. */
function writeCache(dirs: readonly string[], identity: ScriptIdentity, name: string, data: Buffer): void {
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
    removeStaleCaches(dir, identity, name);
    return;
  }
}

/**
 * Caches of the same bundle from other builds are dead weight, and so is the warm-up's cache once
 * a run saved its own. Those of the same build for another Node version stay: a machine that
 * switches between two Node versions keeps both.
 */
function removeStaleCaches(dir: string, identity: ScriptIdentity, saved: string): void {
  const sameBundle = new RegExp(`^${identity.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-([^-]+)-v\\d`);
  const servedWarm = saved === codeCacheFileName(identity) ? codeCacheFileName(identity, 'warm') : undefined;
  try {
    for (const entry of readdirSync(dir)) {
      const id = sameBundle.exec(entry)?.[1];
      const stale =
        (id !== undefined && id !== identity.id && entry.endsWith('.v8cache')) || entry === servedWarm;
      if (stale) unlinkSync(join(dir, entry));
    }
  } catch {
    // Another run may be cleaning up too.
  }
}

/**
 * `distDir` is the install's bundle folder (dist/), whose `.cache` is tried first; `scriptRequire`
 * is the `require` the script sees (lib/lazy-bundle.ts answers some ids itself).
 */
export function runCachedScript<Exports>(
  scriptPath: string,
  scriptIdentity: ScriptIdentity,
  env: CacheEnv,
  distDir: string = dirname(scriptPath),
  scriptRequire: NodeJS.Require = createRequire(scriptPath),
): CachedScript<Exports> {
  const flags = v8FlagsTag();
  const tagged = (name: string) => (flags ? `${name}-${flags}` : name);
  const identity = { ...scriptIdentity, name: tagged(scriptIdentity.name) };
  // Bundles are ASCII (esbuild escapes the rest), so latin1 reads them without UTF-8 decoding.
  const wrapped = readWrappedSource(scriptPath);
  const enabled = env.YOKE_CODE_CACHE !== 'off';
  const warmingUp = env.YOKE_CODE_CACHE === 'warm';
  const dirs = enabled ? codeCacheDirs(distDir, env) : [];
  const final = enabled ? readCache(dirs, codeCacheFileName(identity)) : undefined;
  const standIn = identity.standIn ? { ...identity, name: tagged(identity.standIn) } : undefined;
  const warm =
    enabled && !final
      ? (readCache(dirs, codeCacheFileName(identity, 'warm')) ??
        (standIn
          ? (readCache(dirs, codeCacheFileName(standIn)) ??
            readCache(dirs, codeCacheFileName(standIn, 'warm')))
          : undefined))
      : undefined;
  const cached = final ?? warm;
  // The cache's bytes are the shared read buffer's (lib/bundle-reads.ts): read last, used here only.
  const script = new vm.Script(wrapped, { filename: scriptPath, cachedData: cached?.data });
  const module = { exports: {} as Exports };
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: unknown,
    filename: string,
    dirname: string,
  ) => void;
  wrapper.call(module.exports, module.exports, scriptRequire, module, scriptPath, dirname(scriptPath));

  const codeCache: CodeCacheState = !enabled
    ? 'off'
    : cached === undefined
      ? 'missing'
      : script.cachedDataRejected
        ? 'rejected'
        : warm
          ? 'warm'
          : 'used';
  let needsSave = codeCache === 'missing' || codeCache === 'rejected' || (codeCache === 'warm' && !warmingUp);
  return {
    exports: module.exports,
    codeCache,
    saveCodeCache() {
      // Made under flags other than the ones it was read with, it would not fit the next run.
      if (!needsSave || v8FlagsTag() !== flags) return;
      needsSave = false;
      // A refused cache is replaced where it was found; a new one goes to the first place we can write.
      const targets = cached ? [cached.dir, ...dirs.filter((d) => d !== cached.dir)] : dirs;
      const name = codeCacheFileName(identity, warmingUp ? 'warm' : 'final');
      writeCache(targets, identity, name, script.createCachedData());
    },
  };
}
