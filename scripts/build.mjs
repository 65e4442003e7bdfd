// Bundles the CLI with esbuild. The entry file stays tiny so `yoke --version` starts fast;
// everything else sits in chunks that are imported lazily on first use.
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

rmSync(join(root, 'dist'), { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: { yoke: 'src/cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  loader: { '.md': 'text' },
  define: { YOKE_VERSION: JSON.stringify(pkg.version) },
  banner: {
    js: [
      '#!/usr/bin/env node',
      "import { createRequire as __yokeCreateRequire } from 'node:module';",
      'const require = __yokeCreateRequire(import.meta.url);',
    ].join('\n'),
  },
  legalComments: 'none',
  logLevel: 'warning',
  sourcemap: false,
  minifySyntax: true,
  minifyWhitespace: true,
});
