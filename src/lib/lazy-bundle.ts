/**
 * Parts of Yoke that most starts never run (the interactive UI, the subcommands, the mock model
 * server) are built into their own scripts, `dist/lazy-<name>.js` (scripts/build.mjs): left in
 * the app bundle, their code would be read, deserialized and instantiated by every `-p` start.
 *
 * Unlike a vendor bundle (lib/vendor.ts) a lazy bundle is Yoke's own code, which shares modules
 * with the app: the session types, the settings loader, the tools. Those must be the app's own
 * instances, not copies (a copy would have its own module state and its own classes, so
 * `instanceof` would fail across the boundary). The build makes every import of a module the
 * app already contains a `require("yoke-shared:<path>")`, and this loader answers it from the
 * table the app passes: getters that initialize the app's module on first use and return it. An
 * import of another lazy bundle's entry is `require("yoke-lazy:<bundle>:<entry>")`, answered
 * through the same table, which then holds that bundle's loader (the build's SERVES).
 *
 * Under vitest, sources import each other directly and nothing calls this.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { scheduleCodeCacheSave } from './bundle-cache-timing';
import { type CachedScript, runCachedScript } from './cached-script';

/** The app's modules a lazy bundle imports, by source path: each returns the module's exports. */
export type SharedModules = Readonly<Record<string, () => unknown>>;

/** What a lazy bundle exports: each entry module the app imports from it, loaded on first use. */
type LazyEntries = Record<string, () => unknown>;

export const SHARED_PREFIX = 'yoke-shared:';
/** `yoke-lazy:<bundle>:<entry>`: an entry of another lazy bundle, which loads that bundle. */
const LAZY_PREFIX = 'yoke-lazy:';

// Process-wide on purpose, like Node's own module cache: a bundle runs once per process.
const loaded = new Map<string, LazyEntries>();

export function lazyModule(bundle: string, buildId: string, shared: SharedModules, entry: string): unknown {
  let entries = loaded.get(bundle);
  if (!entries) {
    // `__dirname` is dist/ in the app bundle, where the build puts the lazy bundles.
    const path = join(__dirname, `lazy-${bundle}.js`);
    const requireFromBundle = createRequire(path);
    // Each of the bundle's modules that imports an app module asks for it: the answer is made
    // once. (An app module seen from CommonJS is a fresh copy of its exports each time it is
    // asked for — the engine's bundle asked ~1,000 times, ~6 ms of a -p start.)
    const sharedSeen = new Map<string, unknown>();
    const bundleRequire = ((id: string) => {
      if (id.startsWith(LAZY_PREFIX)) return otherBundleEntry(bundle, shared, id);
      if (!id.startsWith(SHARED_PREFIX)) return requireFromBundle(id);
      if (sharedSeen.has(id)) return sharedSeen.get(id);
      const module = shared[id.slice(SHARED_PREFIX.length)];
      if (!module)
        throw new Error(`Yoke's build is inconsistent: ${bundle} needs ${id}; rebuild it (npm run build).`);
      const exports = module();
      sharedSeen.set(id, exports);
      return exports;
    }) as NodeJS.Require;
    let script: CachedScript<LazyEntries>;
    try {
      script = runCachedScript(
        path,
        { name: `lazy-${bundle}`, id: buildId },
        process.env,
        __dirname,
        bundleRequire,
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      throw new Error(`Yoke's build is incomplete: ${path} is missing. Rebuild it with \`npm run build\`.`);
    }
    // Saved at once (its top level is what later loads pay for), or in the REPL when the session ends.
    scheduleCodeCacheSave(() => script.saveCodeCache());
    entries = script.exports;
    loaded.set(bundle, entries);
  }
  const load = entries[entry];
  if (!load) throw new Error(`The ${bundle} bundle lacks ${entry}; rebuild Yoke (npm run build).`);
  return load();
}

/**
 * One lazy bundle importing another's entry (the REPL's /mcp view uses the MCP bundle's manager):
 * the app's table for the importing bundle holds the other's loader under `yoke-lazy:<bundle>`.
 */
function otherBundleEntry(from: string, shared: SharedModules, id: string): unknown {
  const [other, entry] = id.slice(LAZY_PREFIX.length).split(/:(.*)/s) as [string, string];
  const load = shared[`${LAZY_PREFIX}${other}`] as (() => (entry: string) => unknown) | undefined;
  if (!load)
    throw new Error(`Yoke's build is inconsistent: ${from} needs ${id}; rebuild it (npm run build).`);
  return load()(entry);
}
