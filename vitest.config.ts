import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** Lets tests import `prompt.md` files as text, the way the esbuild bundle does. */
const markdownAsText: Plugin = {
  name: 'yoke-markdown-as-text',
  transform(code, id) {
    if (!id.endsWith('.md')) return null;
    return { code: `export default ${JSON.stringify(code)};`, map: null };
  },
};

export default defineConfig({
  plugins: [markdownAsText],
  define: { YOKE_VERSION: JSON.stringify(pkg.version) },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
    // Each test file's temp folders live in one TMPDIR of its own, removed after the file.
    setupFiles: ['./test/setup/file-tmpdir.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
