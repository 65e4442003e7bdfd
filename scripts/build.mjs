// Bundles the CLI with esbuild into CommonJS scripts:
// - dist/yoke.js, the entry: tiny, so `yoke --version` starts fast; it runs the app through a
//   V8 code cache (src/lib/cached-script.ts);
// - dist/app.js, the app in one script, since a code cache covers one script. Modules the source
//   imports lazily (`await import(...)`) stay lazy: esbuild runs their top level on first use;
// - dist/vendor/*.js, packages most starts never touch (src/lib/vendor.ts): kept out of app.js,
//   whose every byte each start reads, deserializes and instantiates;
// - dist/lazy-*.js, Yoke's own code that most starts never run (src/lib/lazy-bundle.ts), sharing
//   the app's instances of the modules both use.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import {
  inkForCommonJs,
  isShareable,
  lazyBuiltins,
  lazyEntriesPlugin,
  sharedModulesPlugin,
  vendorPlugin,
} from './esbuild-plugins.mjs';
import { memoizeToEsm } from './esm-interop-memo.mjs';
import { warmCodeCaches } from './warm-code-cache.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dist = join(root, 'dist');
const minify = process.env.YOKE_BUILD_NO_MINIFY !== '1';

/** Vendor bundles, and the import specifiers that go to each (classic `zod` only, not zod/mini). */
const VENDORS = {
  openai: /^openai(\/.*)?$/,
  mcp: /^@modelcontextprotocol\/sdk(\/.*)?$/,
  turndown: /^turndown$/,
  yaml: /^yaml$/,
  'zod-classic': /^zod$/,
  'web-tree-sitter': /^web-tree-sitter$/,
  lsp: /^vscode-(jsonrpc|languageserver-protocol)(\/.*)?$/,
  // The interactive UI: Ink, React and Ink's layout engine, in one bundle so they share one React.
  ink: /^(ink|react|react\/jsx-runtime|yoga-layout)$/,
};

/**
 * Lazy bundles, and the entry modules in each that the app imports with `await import()`. A plain
 * `-p` run loads none of them before its first request (the Bash preload loads `shell` once that
 * is out; test/e2e/lazy-bundles.test.ts keeps them out of the app). A module two bundles use and the app
 * does not would be two copies: see SERVES.
 */
const LAZY = {
  // The engine: the model clients, tools, permissions, hooks' and sessions' plumbing — what runs a
  // conversation. A `-p` run loads it at once; the REPL after its first frame, which needs only
  // the CLI, the settings and the trust check (and the REPL's own bundle).
  engine: [
    'src/cli/print.ts',
    'src/cli/session-setup.ts',
    'src/tui/session/command-host.ts',
    // The REPL's `!command` (the Bash tool) and `@path` mentions (the Read tool).
    'src/interactive/bang-command.ts',
    'src/interactive/mentions.ts',
    // The model clients (src/model/select.ts, which the REPL's start checks use, loads them).
    'src/model/anthropic/index.ts',
    'src/model/http/transport.ts',
    // Subcommands that work with the engine's parts.
    'src/cli/commands/doctor.ts',
    'src/cli/commands/sandbox.ts',
    'src/cli/commands/permissions.ts',
  ],
  // The interactive UI with its commands and views, and the subcommands (`yoke mcp`, `yoke
  // sessions`, `yoke trust`, `yoke plugin`), which share some of them.
  interactive: [
    'src/tui/start.ts',
    'src/cli/commands/mcp.ts',
    'src/cli/commands/mcp-login.ts',
    'src/cli/commands/mcp-serve.ts',
    'src/cli/commands/plugin.ts',
    'src/cli/commands/sessions.ts',
    'src/cli/commands/trust.ts',
  ],
  // The OpenAI-compatible provider (the `openai` vendor bundle holds the SDK itself).
  openai: ['src/model/openai/index.ts', 'src/model/openai/context-length.ts'],
  'mock-server': ['src/testing/mock-server/cli.ts'],
  // A session the Agent SDK drives (`--input-format stream-json`).
  'stream-json': ['src/sdk/session.ts'],
  // The MCP client, once some server is configured (the SDK itself is the `mcp` vendor bundle).
  mcp: [
    'src/mcp/manager.ts',
    'src/mcp/resource-mentions.ts',
    'src/tools/mcp/resource-tools.ts',
    'src/tools/mcp/server-tools.ts',
  ],
  // The hook runner, once some hook can run.
  hooks: ['src/hooks/runner.ts'],
  // Reading the enabled plugins, once settings or flags name one.
  plugins: ['src/plugins/load-enabled.ts'],
  // The LSP and LSPRename tools' work and the language-server client, on their first call.
  lsp: [
    'src/tools/builtin/lsp/run.ts',
    'src/tools/builtin/lsp-rename/rename.ts',
    'src/services/lsp/client.ts',
  ],
  // The shell parser and the permission checks of a command line, on the first one (or once a
  // session's first request is out: src/tools/builtin/bash/preload.ts).
  shell: [
    'src/services/bash-parser/index.ts',
    'src/permissions/bash-permission.ts',
    'src/permissions/bash-rule-match.ts',
    'src/permissions/shell-analysis.ts',
  ],
  // --json-schema's StructuredOutput tool.
  'structured-output': ['src/engine/structured-output.ts'],
};
/**
 * Bundles that lend their modules to others: a module that the bundle and only those others use
 * becomes an entry of the bundle, which they load for it (`yoke mcp list`, in `interactive`, runs
 * the `mcp` bundle's client). Any other module two bundles use goes into the app.
 */
const SERVES = {
  mcp: ['interactive'],
  plugins: ['interactive'],
  // Not the REPL: what it shares with the engine stays in the app, since the REPL's first frame
  // must not wait for the engine's bundle.
  engine: Object.keys(LAZY).filter((bundle) => bundle !== 'engine' && bundle !== 'interactive'),
};
const homeOf = (owners) =>
  owners.find((home) => owners.every((o) => o === home || SERVES[home]?.includes(o)));

const lazyEntries = Object.fromEntries(
  Object.entries(LAZY).flatMap(([bundle, entries]) => entries.map((entry) => [entry, bundle])),
);

const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  charset: 'ascii',
  legalComments: 'none',
  logLevel: 'warning',
  // For profiling (`node --cpu-prof`): maps the bundles' positions back to the sources.
  sourcemap: process.env.YOKE_BUILD_SOURCEMAP === '1',
  minify,
  loader: { '.md': 'text' },
  jsx: 'automatic',
  define: { YOKE_VERSION: JSON.stringify(pkg.version), 'import.meta.url': '__yokeScriptUrl' },
  // The few modules that locate files next to themselves (the tree-sitter wasm) ask import.meta.url.
  banner: { js: 'var __yokeScriptUrl=require("node:url").pathToFileURL(__filename).href;' },
  // `import()` becomes `require()`: on Node 20 a script compiled from a code cache loses its
  // dynamic-import callback, and what the bundles import at run time is CommonJS or built in.
  supported: { 'dynamic-import': false },
  // Its ESM build finds Node's `require` through `await import('module')`, which cannot work
  // inside a CommonJS bundle; its CommonJS build is the same code.
  alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/web-tree-sitter.cjs' },
};

const sha = (data) => createHash('sha256').update(data).digest('hex').slice(0, 16);

rmSync(dist, { recursive: true, force: true });
mkdirSync(join(dist, 'vendor'), { recursive: true });
// The package is ESM for the sources and tests; the built files are CommonJS scripts.
writeFileSync(join(dist, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);

// 1. Which modules does the app contain, and which specifiers of the vendored packages do the
// app and the lazy bundles import?
const recording = { write: false, minify: false, metafile: true };
const used = {};
// The app is run.ts with what it imports, plus the modules two lazy bundles share that no bundle
// can lend the other (`toApp`), each with everything it imports.
const toApp = new Set();
const recordApp = async () => {
  const record = await build({
    ...common,
    entryPoints: ['src/cli/run.ts', ...toApp],
    outdir: 'dist',
    ...recording,
    plugins: [
      lazyBuiltins,
      vendorPlugin({ root, bundles: VENDORS, used }),
      lazyEntriesPlugin({ root, entries: lazyEntries }),
    ],
  });
  const modules = new Set(Object.keys(record.metafile.inputs));
  // Recording leaves the vendor imports unresolved; built, they go through lib/vendor.ts, which
  // must be the app's own so that each vendor bundle loads once.
  modules.add('src/lib/vendor.ts');
  return modules;
};
const chosenEntries = new Set(Object.keys(lazyEntries));
let inApp = await recordApp();
for (const entry of chosenEntries) {
  if (inApp.has(entry))
    throw new Error(`build: ${entry} is meant to load lazily, but the app imports it statically.`);
}

const lazyEntryScript = (entries) => ({
  contents: `module.exports = {\n${entries.map((e) => `  ${JSON.stringify(e)}: () => require(${JSON.stringify(`./${e}`)}),`).join('\n')}\n};`,
  resolveDir: root,
  loader: 'js',
});
// Each lazy bundle imports the app's modules from the app. A module two bundles use and the app
// does not would run twice (two copies, two states): such modules go into the app too, and the
// bundles are recorded again until none is left.
const recordLazy = async (bundle, entries, shared) => {
  const record = await build({
    ...common,
    stdin: { ...lazyEntryScript(entries), sourcefile: `lazy-${bundle}.js` },
    outfile: join(dist, `lazy-${bundle}.js`),
    ...recording,
    plugins: [
      lazyBuiltins,
      vendorPlugin({ root, bundles: VENDORS, used }),
      sharedModulesPlugin({ root, shared, entries: lazyEntries, bundle }),
    ],
  });
  // Shared modules and other bundles' entries are external: they show as imports, not inputs.
  const inputs = Object.entries(record.metafile.inputs);
  const imported = inputs.flatMap(([, input]) => input.imports.map((i) => i.path));
  return {
    shared: [...new Set(imported.filter((p) => p.startsWith('yoke-shared:')).map((p) => p.slice(12)))].sort(),
    loads: [
      ...new Set(imported.filter((p) => p.startsWith('yoke-lazy:')).map((p) => p.split(':')[1])),
    ].sort(),
    // Copies of packages are harmless (see isShareable); two copies of Yoke's own module are not.
    own: inputs.map(([p]) => p).filter(isShareable),
  };
};
const lazyShared = {};
const lazyLoads = {};
for (let round = 0; ; round++) {
  const owner = new Map();
  const twice = new Map();
  for (const [bundle, entries] of Object.entries(LAZY)) {
    const { shared, own, loads } = await recordLazy(bundle, entries, inApp);
    lazyLoads[bundle] = loads;
    // Recording stubs the vendor imports, so their lib/vendor.ts never shows; shared it must be,
    // or a bundle loads its own copy of a vendor (two MCP SDKs: `instanceof` fails across them).
    lazyShared[bundle] = [...new Set([...shared, 'src/lib/vendor.ts'])].sort();
    for (const input of own) {
      const first = owner.get(input);
      if (first !== undefined && first !== bundle)
        twice.set(input, [...(twice.get(input) ?? [first]), bundle]);
      owner.set(input, bundle);
    }
  }
  if (twice.size === 0) break;
  if (round === 10) throw new Error(`build: lazy bundles keep sharing ${[...twice.keys()].join(', ')}`);
  const appBefore = toApp.size;
  for (const [input, owners] of twice) {
    const home = homeOf(owners);
    if (home === undefined) {
      toApp.add(input);
      continue;
    }
    LAZY[home].push(input);
    lazyEntries[input] = home;
  }
  if (toApp.size === appBefore) continue;
  // What the app now holds, with the modules those import: a module a bundle was made to lend
  // that the app now holds is the app's (one copy: the app's).
  inApp = await recordApp();
  for (const entry of chosenEntries) {
    if (inApp.has(entry)) throw new Error(`build: ${entry} is meant to load lazily, but the app needs it.`);
  }
  for (const [bundle, entries] of Object.entries(LAZY)) {
    LAZY[bundle] = entries.filter((entry) => !inApp.has(entry));
    for (const entry of entries) if (inApp.has(entry)) delete lazyEntries[entry];
  }
}

// 2. One bundle per vendor: its default export maps each specifier to the module namespace.
const vendors = {};
const requireFromHere = createRequire(import.meta.url);
for (const [bundle, specifiers] of Object.entries(used)) {
  const list = [...specifiers].sort();
  const imports = list.map((s, i) => `import * as m${i} from ${JSON.stringify(s)};`).join('\n');
  const map = list.map((s, i) => `${JSON.stringify(s)}: m${i}`).join(', ');
  const outfile = join(dist, 'vendor', `${bundle}.js`);
  await build({
    ...common,
    // React picks its build by NODE_ENV at run time, and the development one (unset NODE_ENV)
    // is several times slower and keeps a performance.measure entry per render, forever.
    define: { ...common.define, 'process.env.NODE_ENV': '"production"' },
    stdin: {
      contents: `${imports}\nexport default { ${map} };`,
      resolveDir: root,
      sourcefile: `vendor-${bundle}.js`,
    },
    outfile,
    plugins: [lazyBuiltins, inkForCommonJs({ root })],
  });
  // The REPL's first frame waits for Ink's bundle to load (scripts/esm-interop-memo.mjs).
  if (bundle === 'ink') writeFileSync(outfile, memoizeToEsm(readFileSync(outfile, 'utf8'), outfile));
  const modules = requireFromHere(outfile).default;
  const exportNames = Object.fromEntries(list.map((s) => [s, Object.keys(modules[s])]));
  vendors[bundle] = { id: sha(readFileSync(outfile)), exportNames };
}

// 3. The built-in tools' JSON Schemas, converted from their zod schemas now rather than at every
// start, with each one's token estimate (src/tools/builtin/index.ts, src/cli/session-builtins.ts).
const schemaScript = join(dist, 'tool-schemas.js');
await build({
  ...common,
  stdin: {
    contents: `import { everyBuiltinTool } from './src/cli/session-builtins';
import { estimateSchemaTokens } from './src/model/tokens';
const tools = everyBuiltinTool();
module.exports = {
  schemas: Object.fromEntries(tools.map((tool) => [tool.name, tool.inputJsonSchema])),
  tokens: Object.fromEntries(tools.map((tool) => [tool.name, estimateSchemaTokens(tool.inputJsonSchema)])),
};`,
    resolveDir: root,
    sourcefile: 'tool-schemas.js',
  },
  outfile: schemaScript,
  plugins: [lazyBuiltins],
});
const toolSchemas = requireFromHere(schemaScript);
rmSync(schemaScript);

// 4. The lazy bundles, then the app, with vendored imports going to the vendor bundles and lazy
// entries to theirs.
// Wherever the built-in tools' module lands (the engine's bundle, today).
const withToolSchemas = {
  ...common.define,
  YOKE_BUILTIN_TOOL_SCHEMAS: JSON.stringify(toolSchemas.schemas),
  YOKE_BUILTIN_SCHEMA_TOKENS: JSON.stringify(toolSchemas.tokens),
};
const lazyBuilt = {};
for (const [bundle, entries] of Object.entries(LAZY)) {
  const outfile = join(dist, `lazy-${bundle}.js`);
  await build({
    ...common,
    define: withToolSchemas,
    stdin: { ...lazyEntryScript(entries), sourcefile: `lazy-${bundle}.js` },
    outfile,
    plugins: [
      lazyBuiltins,
      vendorPlugin({ root, bundles: VENDORS, used: {}, vendors }),
      sharedModulesPlugin({ root, shared: new Set(lazyShared[bundle]), entries: lazyEntries, bundle }),
    ],
  });
  lazyBuilt[bundle] = {
    id: sha(readFileSync(outfile)),
    shared: lazyShared[bundle],
    loads: lazyLoads[bundle],
  };
}
const appBuilt = await build({
  ...common,
  metafile: true,
  entryPoints: { app: 'src/cli/run.ts' },
  outdir: 'dist',
  define: withToolSchemas,
  plugins: [
    lazyBuiltins,
    vendorPlugin({ root, bundles: VENDORS, used: {}, vendors }),
    lazyEntriesPlugin({ root, entries: lazyEntries, built: lazyBuilt }),
  ],
});
// What each start reads: the app's modules with their bytes in app.js, and the lazy bundles'
// entries (test/e2e/lazy-bundles.test.ts keeps them out of the app; bench/headless.mjs prints sizes).
const appOutput = Object.values(appBuilt.metafile.outputs).find((output) => output.entryPoint);
mkdirSync(join(dist, '.build'));
writeFileSync(
  join(dist, '.build', 'app-modules.json'),
  `${JSON.stringify(
    {
      app: Object.fromEntries(
        Object.entries(appOutput.inputs).map(([path, input]) => [path, input.bytesInOutput]),
      ),
      lazy: LAZY,
    },
    null,
    1,
  )}\n`,
);

// 5. The entry, which knows the app build it loads.
await build({
  ...common,
  entryPoints: { yoke: 'src/cli/main.ts' },
  outdir: 'dist',
  // Old enough for the Node.js of an old distribution (Ubuntu 22.04's is 12) to parse the entry and
  // print its line asking for a newer Node (src/lib/node-version.ts), instead of a SyntaxError.
  target: 'node12',
  define: {
    YOKE_VERSION: JSON.stringify(pkg.version),
    YOKE_BUILD_ID: JSON.stringify(sha(readFileSync(join(dist, 'app.js')))),
  },
  banner: { js: '#!/usr/bin/env node' },
});
// npm sets the bin's mode when it installs or links the package, not when dist/ is rebuilt: a
// `npm link`ed yoke would stop running after the next build without this.
chmodSync(join(dist, 'yoke.js'), 0o755);

// 6. The first run after install should already be a fast one (scripts/warm-code-cache.mjs).
if (process.env.YOKE_BUILD_NO_WARM !== '1') {
  await warmCodeCaches(dist).catch((error) => {
    console.warn(`build: the code caches were not warmed (${error.message}); the first runs will save them.`);
  });
}
