import { describe, expect, it } from 'vitest';
import { compileGlob } from './glob-pattern';

const matches = (pattern: string, path: string) => compileGlob(pattern)(path);

describe('compileGlob', () => {
  it('matches a slash-free pattern against the file name at any depth', () => {
    expect(matches('*.ts', 'a.ts')).toBe(true);
    expect(matches('*.ts', 'src/deep/a.ts')).toBe(true);
    expect(matches('*.ts', 'src/a.tsx')).toBe(false);
  });

  it('anchors a pattern with a slash to the root, with * inside one segment', () => {
    expect(matches('src/*.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/*.ts', 'src/x/a.ts')).toBe(false);
    expect(matches('src/*.ts', 'lib/src/a.ts')).toBe(false);
    expect(matches('/a.ts', 'a.ts')).toBe(true);
    expect(matches('/a.ts', 'x/a.ts')).toBe(false);
  });

  it('lets ** span zero or more directories', () => {
    expect(matches('**/*.ts', 'a.ts')).toBe(true);
    expect(matches('src/**/a.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/**/a.ts', 'src/x/y/a.ts')).toBe(true);
    expect(matches('src/**', 'src/x/y/a.ts')).toBe(true);
  });

  it('supports ?, character classes, braces and escapes', () => {
    expect(matches('file?.md', 'file1.md')).toBe(true);
    expect(matches('file?.md', 'file10.md')).toBe(false);
    expect(matches('[ab].js', 'b.js')).toBe(true);
    expect(matches('[!ab].js', 'b.js')).toBe(false);
    expect(matches('[!ab].js', 'c.js')).toBe(true);
    expect(matches('src/**/index.{js,ts}', 'src/x/index.ts')).toBe(true);
    expect(matches('src/**/index.{js,ts}', 'src/x/index.md')).toBe(false);
    expect(matches('\\*.txt', '*.txt')).toBe(true);
    expect(matches('\\*.txt', 'a.txt')).toBe(false);
    expect(matches('a.(b)+', 'a.(b)+')).toBe(true);
  });
});
