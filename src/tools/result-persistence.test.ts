import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../config/atomic-write';
import { PERSISTED_PREVIEW_CHARS, persistLargeResult } from './result-persistence';

const sessionDir = () => mkdtempSync(join(tmpdir(), 'yoke-persist-'));
const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i}`).join('\n');

describe('persistLargeResult', () => {
  it('keeps a result that fits unchanged and writes nothing', async () => {
    const dir = sessionDir();
    const outcome = await persistLargeResult({
      content: 'short',
      maxResultSizeChars: 100,
      sessionDir: dir,
      toolUseId: 'a',
    });
    expect(outcome).toEqual({ content: 'short' });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('saves an oversized text result and returns a preview that points at the file', async () => {
    const dir = sessionDir();
    const text = lines(5_000);
    const outcome = await persistLargeResult({
      content: text,
      maxResultSizeChars: 10_000,
      sessionDir: dir,
      toolUseId: 'toolu_big',
    });
    const path = join(dir, 'tool-results', 'toolu_big.txt');
    expect(outcome.path).toBe(path);
    expect(readFileSync(path, 'utf8')).toBe(text);
    const preview = outcome.content as string;
    expect(preview.startsWith('line 0\nline 1\n')).toBe(true);
    expect(preview.length).toBeLessThan(PERSISTED_PREVIEW_CHARS + 400);
    expect(preview).toContain(`${text.length.toLocaleString('en-US')} characters`);
    expect(preview).toContain(path);
    expect(preview).toContain('Read tool');
    // The cut lands on a line end, not mid-line.
    expect(preview.split('\n\n[')[0]!.endsWith('\n')).toBe(false);
    expect(preview.split('\n\n[')[0]!.split('\n').at(-1)).toMatch(/^line \d+$/);
    expect(readdirSync(join(dir, 'tool-results'))).toEqual(['toolu_big.txt']);
  });

  it('collapses text blocks into one preview and keeps images', async () => {
    const dir = sessionDir();
    const image = {
      type: 'image' as const,
      source: { type: 'url' as const, url: 'https://example.com/a.png' },
    };
    const outcome = await persistLargeResult({
      content: [{ type: 'text', text: 'x'.repeat(300) }, image, { type: 'text', text: 'y'.repeat(300) }],
      maxResultSizeChars: 500,
      sessionDir: dir,
      toolUseId: 'toolu_mixed',
    });
    expect(Array.isArray(outcome.content)).toBe(true);
    const blocks = outcome.content as Exclude<typeof outcome.content, string>;
    expect(blocks.map((b) => b.type)).toEqual(['text', 'image']);
    expect(readFileSync(outcome.path!, 'utf8')).toBe(`${'x'.repeat(300)}\n${'y'.repeat(300)}`);
  });

  it('never lets a tool-use id escape the results folder', async () => {
    const dir = sessionDir();
    const outcome = await persistLargeResult({
      content: 'z'.repeat(50),
      maxResultSizeChars: 10,
      sessionDir: dir,
      toolUseId: '../../evil',
    });
    expect(outcome.path).toBe(join(dir, 'tool-results', '______evil.txt'));
  });
});

describe('writeFileAtomic', () => {
  it('replaces the file whole and leaves no temporary file behind', async () => {
    const dir = sessionDir();
    const path = join(dir, 'out.txt');
    await writeFileAtomic(path, Buffer.from('first'));
    await writeFileAtomic(path, Buffer.from('second'));
    expect(readFileSync(path, 'utf8')).toBe('second');
    expect(readdirSync(dir)).toEqual(['out.txt']);
  });
});
