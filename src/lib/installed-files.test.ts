import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findInstalledFile } from './installed-files';

function tree(files: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'yoke-installed-'));
  for (const file of files) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), '');
  }
  return root;
}

describe('findInstalledFile', () => {
  it('looks in node_modules of the starting folder, then of each folder above', () => {
    const root = tree(['node_modules/pkg/data.wasm', 'app/dist/app.js']);
    const from = pathToFileURL(join(root, 'app', 'dist', 'app.js')).href;
    expect(findInstalledFile(from, ['pkg/data.wasm'])).toBe(join(root, 'node_modules', 'pkg', 'data.wasm'));
    // The nearest one wins, as in Node's resolution.
    const nearer = tree(['node_modules/pkg/data.wasm', 'app/node_modules/pkg/data.wasm', 'app/dist/app.js']);
    expect(findInstalledFile(join(nearer, 'app', 'dist', 'app.js'), ['pkg/data.wasm'])).toBe(
      join(nearer, 'app', 'node_modules', 'pkg', 'data.wasm'),
    );
  });

  it('tries each candidate at a level before going up, and says when none exists', () => {
    const root = tree(['node_modules/outer/node_modules/inner/bin/x', 'app.js']);
    const from = join(root, 'app.js');
    expect(findInstalledFile(from, ['inner/bin/x', 'outer/node_modules/inner/bin/x'])).toBe(
      join(root, 'node_modules', 'outer', 'node_modules', 'inner', 'bin', 'x'),
    );
    expect(findInstalledFile(from, ['missing/file'])).toBeUndefined();
  });
});
