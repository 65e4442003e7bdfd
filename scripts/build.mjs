// Bundles the CLI with esbuild into two CommonJS files:
// - dist/yoke.js, the entry: tiny, so `yoke --version` starts fast; it loads the app through a
//   V8 code cache (src/cli/app-loader.ts);
// - dist/app.js, the whole app in one script, since a code cache covers one script. Modules the
//   source imports lazily (`await import(...)`) stay lazy: esbuild runs their top level on first use.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Built-ins that dependencies import at load time but use only on paths a start never takes
 * (commander's executable subcommands, the Anthropic SDK's agent toolset): each becomes an
 * object whose properties fetch the real module on first access, so it loads when used, not at
 * every start (child_process alone is ~3 ms).
 */
const LAZY_BUILTINS = ['child_process'];
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(pluginBuild) {
    const filter = new RegExp(`^(node:)?(${LAZY_BUILTINS.join('|')})$`);
    pluginBuild.onResolve({ filter }, (args) => ({
      path: args.path.replace(/^node:/, ''),
      namespace: 'lazy-builtin',
    }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async (args) => {
      const names = Object.keys(await import(`node:${args.path}`)).filter((n) => n !== 'default');
      const getters = names.map(
        (n) => `${JSON.stringify(n)}: { get: () => load()[${JSON.stringify(n)}], enumerable: true }`,
      );
      return {
        loader: 'js',
        contents: `const load = () => process.getBuiltinModule(${JSON.stringify(`node:${args.path}`)});
module.exports = Object.defineProperties({}, { ${getters.join(', ')} });`,
      };
    });
  },
};
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dist = join(root, 'dist');

rmSync(dist, { recursive: true, force: true });

const common = {
  absWorkingDir: root,
  outdir: 'dist',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  charset: 'ascii',
  legalComments: 'none',
  logLevel: 'warning',
  sourcemap: false,
  minify: process.env.YOKE_BUILD_NO_MINIFY !== '1',
};

await build({
  ...common,
  entryPoints: { app: 'src/cli/run.ts' },
  loader: { '.md': 'text' },
  // `import()` becomes `require()`: on Node 20 a script compiled from a code cache loses its
  // dynamic-import callback, and the optional packages and web-tree-sitter's Node shims it loads
  // are all CommonJS or built in.
  supported: { 'dynamic-import': false },
  // Its ESM build finds Node's `require` through `await import('module')`, which cannot work
  // inside a CommonJS bundle; its CommonJS build is the same code for this setting.
  alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/web-tree-sitter.cjs' },
  plugins: [lazyBuiltins],
  define: { YOKE_VERSION: JSON.stringify(pkg.version), 'import.meta.url': '__yokeAppUrl' },
  // The few modules that locate files next to themselves (the tree-sitter wasm) ask import.meta.url.
  banner: { js: 'var __yokeAppUrl=require("node:url").pathToFileURL(__filename).href;' },
});

const buildId = createHash('sha256')
  .update(readFileSync(join(dist, 'app.js')))
  .digest('hex')
  .slice(0, 16);

await build({
  ...common,
  entryPoints: { yoke: 'src/cli/main.ts' },
  define: { YOKE_VERSION: JSON.stringify(pkg.version), YOKE_BUILD_ID: JSON.stringify(buildId) },
  banner: { js: '#!/usr/bin/env node' },
});

// The package is ESM for the sources and tests; the built files are CommonJS scripts.
writeFileSync(join(dist, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
