// esbuild plugins for scripts/build.mjs.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { graphemeFastPath, LAZY_INTL_FILES, lazyIntl } from './lazy-intl.mjs';

/**
 * Built-ins that dependencies import at load time but use only on paths a start never takes
 * (commander's executable subcommands, the Anthropic SDK's agent toolset): each becomes an
 * object whose properties fetch the real module on first access, so it loads when used, not at
 * every start (child_process alone is ~3 ms). `fs/promises` is imported by a dozen of the app's
 * modules and called by none before the REPL's first frame; it brings in Node's readline and
 * fs watchers (~1.7 ms, 8 built-in modules).
 */
const LAZY_BUILTINS = ['child_process', 'fs/promises'];
export const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(pluginBuild) {
    const filter = new RegExp(`^(node:)?(${LAZY_BUILTINS.join('|')})$`);
    pluginBuild.onResolve({ filter }, (args) => ({
      path: args.path.replace(/^node:/, ''),
      namespace: 'lazy-builtin',
    }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async (args) => {
      const id = JSON.stringify(`node:${args.path}`);
      const names = Object.keys(await import(`node:${args.path}`)).filter((n) => n !== 'default');
      // process.getBuiltinModule loads the module on the first call and returns it after.
      const getters = names.map(
        (n) =>
          `${JSON.stringify(n)}: { get: () => process.getBuiltinModule(${id})[${JSON.stringify(n)}], enumerable: true }`,
      );
      return {
        loader: 'js',
        contents: `Object.defineProperty(exports, '__esModule', { value: true });
Object.defineProperties(exports, { ${getters.join(', ')} });`,
      };
    });
  },
};

/**
 * Routes imports of the packages matched by `bundles` (bundle name → specifier pattern) into
 * `used`; given `vendors` (the built bundles'
 * ids and export names), each imported module becomes an ES module re-exporting the namespace
 * from the vendor bundle, which loads when the importing module first runs. (ES, not CommonJS:
 * the sources are ES modules of a `"type": "module"` package, for which esbuild gives a CommonJS
 * module's whole `exports` as the default import.)
 */
export function vendorPlugin({ root, bundles, used, vendors }) {
  return {
    name: 'vendor',
    setup(pluginBuild) {
      for (const [bundle, filter] of Object.entries(bundles)) {
        pluginBuild.onResolve({ filter }, (args) => {
          if (args.kind === 'entry-point') return undefined;
          used[bundle] ??= new Set();
          used[bundle].add(args.path);
          return { path: args.path, namespace: 'vendor', pluginData: { bundle } };
        });
      }
      pluginBuild.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => {
        const { bundle } = args.pluginData;
        // Recording only: a CommonJS stub accepts any import name.
        if (!vendors) return { loader: 'js', contents: 'module.exports = {};' };
        const { id, exportNames } = vendors[bundle];
        const lines = [
          `import { vendorModule } from ${JSON.stringify(join(root, 'src/lib/vendor.ts'))};`,
          `const ns = vendorModule(${JSON.stringify(bundle)}, ${JSON.stringify(id)}, ${JSON.stringify(args.path)});`,
        ];
        exportNames[args.path].forEach((name, i) => {
          lines.push(
            `const e${i} = ns[${JSON.stringify(name)}];`,
            `export { e${i} as ${JSON.stringify(name)} };`,
          );
        });
        return { loader: 'js', contents: lines.join('\n'), resolveDir: root };
      });
    },
  };
}

/**
 * Makes Ink (an ES module package) fit a CommonJS vendor bundle: `yoga-layout` becomes
 * scripts/yoga-shim.mjs, `is-in-ci` is `false`, and the two top-level awaits in Ink's reconciler, both behind the
 * `DEV=true` React-devtools switch, become their non-DEV values. The build fails if Ink's source
 * no longer reads as expected (ink is pinned to an exact version in package.json).
 *
 * Ink's terminal writer is Yoke's (src/tui/terminal/frame-writer.ts): its `log-update.js` and
 * `write-synchronized.js` resolve to src/tui/terminal/ink-output-seam.ts, and its <Static> output
 * goes through the writer's writeAbove, which leaves lines already on screen where they are
 * instead of erasing the live region and printing them again (a pending throttled frame is older
 * than this one, so it is dropped). A live region as tall as the terminal is the writer's too
 * (it shows the region's bottom rows): Ink's clear-the-screen-and-reprint-everything path for it
 * is turned off, and Ink no longer keeps a copy of everything printed for that reprint.
 *
 * Ink's `widest-line` (every text node measured on every frame) is src/tui/terminal/widest-line.ts,
 * the same function with each line's width remembered; its `output.js` (the frame as a string,
 * from the renderer's writes) is src/tui/terminal/row-output.ts, which makes again only the rows
 * whose writes changed. Its `wrap-text.js` wraps with src/tui/views/wrap-rows.ts, as the views
 * that wrap their own text do: Ink's wrap keeps every space, so the space where a row breaks
 * began the next row, one column right of the rows around it (a dialog's paragraph, a notice).
 */
export function inkForCommonJs({ root }) {
  const edits = {
    reconciler: [
      ["await import('./devtools.js');", 'void 0;'],
      ['? await loadPackageJson()', '? { name: undefined, version: undefined }'],
    ],
    ink: [
      [
        /this\.log\.clear\(\);\s*this\.options\.stdout\.write\(staticOutput\);\s*this\.log\(outputToRender\);/,
        'this.throttledLog.cancel?.(); this.log.writeAbove(staticOutput, outputToRender);',
      ],
      // A region as tall as the terminal: the writer shows its bottom rows, instead of Ink clearing
      // the screen and printing the whole history again (every frame, while it stays that tall).
      [
        'const isFullscreen = this.options.stdout.isTTY && outputHeight >= this.options.stdout.rows;',
        'const isFullscreen = false;',
      ],
      ['if (this.lastOutputHeight >= this.options.stdout.rows) {', 'if (false) {'],
      // That reprint was the only reader of the history Ink keeps (a copy of every line printed):
      // now it only says whether anything was printed (for unmount).
      [
        /this\.fullStaticOutput \+= staticOutput;(\s*\}\s*\/\/ Detect fullscreen)/,
        'this.fullStaticOutput ||= staticOutput;$1',
      ],
    ],
    'wrap-text': [
      [
        /wrappedText = wrapAnsi\(text, maxWidth, \{\s*trim: false,\s*hard: true,\s*\}\);/,
        'wrappedText = yokeWrapText(text, maxWidth);',
      ],
      [
        "import wrapAnsi from 'wrap-ansi';",
        `import { wrapText as yokeWrapText } from ${JSON.stringify(join(root, 'src/tui/views/wrap-rows.ts'))};`,
      ],
    ],
  };
  const seam = join(root, 'src/tui/terminal/ink-output-seam.ts');
  const widestLine = join(root, 'src/tui/terminal/widest-line.ts');
  const rowOutput = join(root, 'src/tui/terminal/row-output.ts');
  const singleWidth = join(root, 'src/tui/terminal/single-width.ts');
  const rgiShortcut = join(root, 'src/tui/terminal/rgi-emoji-shortcut.ts');
  return {
    name: 'ink-for-commonjs',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^yoga-layout$/ }, () => ({
        path: join(root, 'scripts/yoga-shim.mjs'),
      }));
      // Ink writes nothing until exit when CI or CONTINUOUS_INTEGRATION is set. The REPL only runs
      // on a terminal a person types into (no TTY means headless), so in the bundle Ink is never
      // "in CI" — whenever the bundle's modules happen to initialise.
      pluginBuild.onResolve({ filter: /^is-in-ci$/ }, () => ({
        path: 'is-in-ci',
        namespace: 'yoke-not-in-ci',
      }));
      pluginBuild.onLoad({ filter: /.*/, namespace: 'yoke-not-in-ci' }, () => ({
        contents: 'export default false;',
        loader: 'js',
      }));
      pluginBuild.onResolve({ filter: /^\.\/(log-update|write-synchronized)\.js$/ }, (args) =>
        /[\\/]ink[\\/]build$/.test(args.resolveDir) ? { path: seam } : undefined,
      );
      // Yoga's Emscripten loader fetches its own WebAssembly, embedded as a data: URL, with
      // `fetch` when the global exists — and reading Node's global `fetch` loads all of undici
      // (~15 ms at launch, more on a slow machine) for nothing. It decodes the embedded bytes
      // itself without fetch, as in any runtime that has none.
      pluginBuild.onLoad(
        { filter: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ },
        async (args) => {
          const contents = await readFile(args.path, 'utf8');
          const fetchesBinary = /return (\w+)\|\|"function"!=typeof fetch\?Promise\.resolve\(\)/;
          if (!fetchesBinary.test(contents))
            throw new Error(`ink-for-commonjs: ${args.path} no longer reads its binary as expected`);
          // And it decodes them with `atob` (JavaScript in Node 20) and a loop over the string's
          // characters, ~5 ms of the first frame's wait: Buffer decodes base64 natively.
          const decodesBinary =
            /var (\w+)=\w+\((\w+)\.slice\(37\)\),(\w+)=new Uint8Array\(\1\.length\);for\(\2=0;\2<\1\.length;\+\+\2\)\3\[\2\]=\1\.charCodeAt\(\2\);var (\w+)=\3/;
          if (!decodesBinary.test(contents))
            throw new Error(`ink-for-commonjs: ${args.path} no longer decodes its binary as expected`);
          return {
            contents: contents
              .replace(fetchesBinary, 'return true?Promise.resolve()')
              .replace(decodesBinary, 'var $4=Buffer.from($2.slice(37),"base64")'),
            loader: 'js',
          };
        },
      );
      // Their Intl.Segmenter and emoji expression are made on first use (scripts/lazy-intl.mjs).
      for (const expected of LAZY_INTL_FILES) {
        pluginBuild.onLoad({ filter: expected.file }, async (args) => {
          const contents = lazyIntl(await readFile(args.path, 'utf8'), args.path, expected, rgiShortcut);
          return {
            contents: expected.fastPath ? graphemeFastPath(contents, args.path, singleWidth) : contents,
            loader: 'js',
            resolveDir: dirname(args.path),
          };
        });
      }
      pluginBuild.onResolve({ filter: /^widest-line$/ }, (args) =>
        /[\\/]ink[\\/]build$/.test(args.resolveDir) ? { path: widestLine } : undefined,
      );
      pluginBuild.onResolve({ filter: /^\.\/output\.js$/ }, (args) =>
        /[\\/]ink[\\/]build$/.test(args.resolveDir) ? { path: rowOutput } : undefined,
      );
      pluginBuild.onLoad(
        { filter: /[\\/]ink[\\/]build[\\/](reconciler|ink|wrap-text)\.js$/ },
        async (args) => {
          let contents = await readFile(args.path, 'utf8');
          const file = /(reconciler|ink|wrap-text)\.js$/.exec(args.path)[1];
          for (const [from, to] of edits[file]) {
            const found = typeof from === 'string' ? contents.includes(from) : from.test(contents);
            if (!found) throw new Error(`ink-for-commonjs: ${args.path} no longer contains ${from}`);
            contents = contents.replace(from, to);
          }
          return { contents, loader: 'js' };
        },
      );
    },
  };
}

const relativeTo = (root, path) => (path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path);

/**
 * The app's side of the lazy bundles (src/lib/lazy-bundle.ts). `entries` maps each entry module
 * (a path relative to the root) to its bundle. Recording (no `built`): a dynamic import of an
 * entry stays out of the app. Building: it becomes a call that runs the entry's bundle, handing
 * it `built[bundle].shared`, the app's modules that bundle imports, and the loaders of the bundles
 * it imports entries of (`built[bundle].loads`). That table is one module per
 * bundle, which all of the bundle's entries require: a copy per entry was kilobytes of the app
 * for nothing.
 */
export function lazyEntriesPlugin({ root, entries, built }) {
  return {
    name: 'lazy-entries',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData?.lazyResolved) return undefined;
        const resolved = await pluginBuild.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { lazyResolved: true },
        });
        const entry = relativeTo(root, resolved.path);
        const bundle = entries[entry];
        if (!bundle) return undefined;
        if (!built) return { path: resolved.path, external: true };
        return { path: entry, namespace: 'lazy-entry', pluginData: { bundle } };
      });
      pluginBuild.onResolve({ filter: /^lazy-bundle:/ }, (args) => ({
        path: args.path.slice('lazy-bundle:'.length),
        namespace: 'lazy-bundle',
      }));
      pluginBuild.onLoad({ filter: /.*/, namespace: 'lazy-entry' }, (args) => ({
        loader: 'js',
        resolveDir: root,
        contents: `module.exports = require(${JSON.stringify(`lazy-bundle:${args.pluginData.bundle}`)})(${JSON.stringify(args.path)});`,
      }));
      pluginBuild.onLoad({ filter: /.*/, namespace: 'lazy-bundle' }, (args) => {
        const bundle = args.path;
        const { id, shared, loads } = built[bundle];
        const table = [
          ...shared.map(
            (path) => `${JSON.stringify(path)}: () => require(${JSON.stringify(join(root, path))})`,
          ),
          ...loads.map(
            (other) =>
              `${JSON.stringify(`yoke-lazy:${other}`)}: () => require(${JSON.stringify(`lazy-bundle:${other}`)})`,
          ),
        ].join(',\n  ');
        return {
          loader: 'js',
          resolveDir: root,
          contents: `const { lazyModule } = require(${JSON.stringify(join(root, 'src/lib/lazy-bundle.ts'))});
const shared = {
  ${table}
};
module.exports = (entry) => lazyModule(${JSON.stringify(bundle)}, ${JSON.stringify(id)}, shared, entry);`,
        };
      });
    },
  };
}

/**
 * Whether a lazy bundle takes a module from the app rather than carrying its own copy. Only
 * Yoke's own modules: packages (zod, diff, …) get a copy per bundle, since the app would have to
 * keep every export of a package module it shares, and packages hold no session state.
 * src/lib/zod.ts is a facade over a package (`export * from 'zod/mini'`): shared, it would keep
 * all of zod in the app, so a bundle gets its own (it sets the same locale).
 */
export const isShareable = (path) => path.startsWith('src/') && path !== 'src/lib/zod.ts';

/**
 * A lazy bundle's side: every import of a module the app contains (`shared`, paths relative to
 * the root) is left to the loader as `require("yoke-shared:<path>")`, and every import of another
 * lazy bundle's entry (`entries`: entry → bundle; `bundle` is this one) as
 * `require("yoke-lazy:<bundle>:<entry>")`, which loads that bundle (the app's own copy, once per
 * process); the rest is bundled.
 */
export function sharedModulesPlugin({ root, shared, entries = {}, bundle }) {
  return {
    name: 'shared-modules',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.sharedResolved || args.kind === 'entry-point') return undefined;
        const resolved = await pluginBuild.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { sharedResolved: true },
        });
        if (resolved.errors.length > 0 || resolved.external || resolved.namespace !== 'file') return resolved;
        const path = relativeTo(root, resolved.path);
        const owner = entries[path];
        if (owner !== undefined && owner !== bundle)
          return { path: `yoke-lazy:${owner}:${path}`, external: true };
        return isShareable(path) && shared.has(path)
          ? { path: `yoke-shared:${path}`, external: true }
          : resolved;
      });
    },
  };
}
