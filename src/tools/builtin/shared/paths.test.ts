import { mkdir, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveToolPath, suggestSimilarPaths } from './paths';
import { makeTempDir } from './test-context';

describe('resolveToolPath', () => {
  it('resolves relative paths against cwd, expands ~ and normalizes', () => {
    expect(resolveToolPath('src/../a.ts', '/work/p')).toBe('/work/p/a.ts');
    expect(resolveToolPath('/x/./y/', '/work')).toBe('/x/y');
    expect(resolveToolPath('~/notes.md', '/work')).toBe(join(homedir(), 'notes.md'));
    expect(resolveToolPath('/etc/hosts', '/work')).toBe('/etc/hosts');
  });
});

describe('suggestSimilarPaths', () => {
  it('suggests names that differ by case, extension or a typo', async () => {
    const dir = await makeTempDir();
    try {
      await mkdir(join(dir, 'sub'));
      await writeFile(join(dir, 'config.ts'), '');
      await writeFile(join(dir, 'README.md'), '');
      expect(await suggestSimilarPaths(join(dir, 'config.js'))).toEqual([join(dir, 'config.ts')]);
      expect(await suggestSimilarPaths(join(dir, 'readme.md'))).toEqual([join(dir, 'README.md')]);
      expect(await suggestSimilarPaths(join(dir, 'confg.ts'))).toEqual([join(dir, 'config.ts')]);
      expect(await suggestSimilarPaths(join(dir, 'nothing-like-it.txt'))).toEqual([]);
      expect(await suggestSimilarPaths(join(dir, 'missing-dir', 'x.ts'))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
