import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastOutputLine, lastOutputLines } from './shell-tail';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'yoke-tail-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('lastOutputLine', () => {
  it('is the last non-empty line, also of a file far larger than the window', async () => {
    const path = join(dir, 'out.log');
    await writeFile(path, `${'noise line\n'.repeat(100_000)}progress 99%\r\n\n`);
    expect(await lastOutputLine(path)).toBe('progress 99%');
  });

  it('marks a line the window cut at its start', async () => {
    const path = join(dir, 'long.log');
    await writeFile(path, `${'x'.repeat(10_000)}\n`);
    expect(await lastOutputLine(path)).toBe(`…${'x'.repeat(4095)}`);
    await writeFile(path, 'only line');
    expect(await lastOutputLine(path)).toBe('only line');
  });

  it('is empty for a missing file', async () => {
    expect(await lastOutputLine(join(dir, 'none.log'))).toBe('');
  });
});

describe('lastOutputLines', () => {
  it('gives the last lines oldest first, skipping blank ones, at most `count`', async () => {
    const path = join(dir, 'many.log');
    await writeFile(path, 'one\ntwo\n\nthree\n  four\n');
    expect(await lastOutputLines(path, 3)).toEqual(['two', 'three', '  four']);
    expect(await lastOutputLines(path, 10)).toEqual(['one', 'two', 'three', '  four']);
  });
});
