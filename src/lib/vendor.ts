/**
 * Packages that most starts never use (the OpenAI SDK, the MCP SDK, turndown, yaml, classic
 * zod, the tree-sitter runtime) are built into their own bundles under `dist/vendor/`:
 * left in the app bundle, their code would be read, deserialized and instantiated on every start.
 * The build replaces each import of such a package with a call here, which runs the package's
 * bundle through the code cache on first use. Under vitest, sources import packages directly
 * and nothing calls this.
 */
import { join } from 'node:path';
import { scheduleCodeCacheSave } from './bundle-cache-timing';
import { type CachedScript, runCachedScript } from './cached-script';

/** A vendor bundle's exports: each import specifier the app uses, mapped to its module namespace. */
type VendorModules = Record<string, Record<string, unknown>>;

// Process-wide on purpose, like Node's own module cache: a vendor bundle runs once per process.
const loaded = new Map<string, VendorModules>();

export function vendorModule(bundle: string, buildId: string, specifier: string): Record<string, unknown> {
  let modules = loaded.get(bundle);
  if (!modules) {
    // `__dirname` is dist/ in the app bundle, where the build puts vendor/.
    const path = join(__dirname, 'vendor', `${bundle}.js`);
    let script: CachedScript<{ default: VendorModules }>;
    try {
      script = runCachedScript(path, { name: `vendor-${bundle}`, id: buildId }, process.env, __dirname);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      throw new Error(`Yoke's build is incomplete: ${path} is missing. Rebuild it with \`npm run build\`.`);
    }
    // Saved at once (its top level is what starts pay for), or in the REPL when the session ends.
    scheduleCodeCacheSave(() => script.saveCodeCache());
    modules = script.exports.default;
    loaded.set(bundle, modules);
  }
  const namespace = modules[specifier];
  if (!namespace) throw new Error(`The ${bundle} bundle lacks ${specifier}; rebuild Yoke (npm run build).`);
  return namespace;
}
