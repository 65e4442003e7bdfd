import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolUseContext } from '../../context';
import { readTool } from '../read';
import { callTool, resultText, tempProjectPerTest } from '../shared/test-context';
import { type WriteOutput, writeTool } from './index';

let dir: string;
let context: ToolUseContext;
tempProjectPerTest((project) => {
  ({ dir, context } = project);
});

const write = (input: Record<string, unknown>) => callTool<WriteOutput>(writeTool, input, context);
const read = (file_path: string, extra: Record<string, unknown> = {}) =>
  callTool(readTool, { file_path, ...extra }, context);

describe('Write', () => {
  it('creates a file and its parent folders, then allows a second write', async () => {
    const path = join(dir, 'deep', 'er', 'new.ts');
    const created = await write({ file_path: path, content: 'a\n' });
    expect(created.data).toEqual({
      type: 'create',
      filePath: path,
      content: 'a\n',
      structuredPatch: [],
      originalFile: null,
    });
    expect(resultText(writeTool, created)).toBe(`Created ${path}.`);
    const updated = await write({ file_path: path, content: 'b\n' });
    expect(updated.data.type).toBe('update');
    expect(updated.data.originalFile).toBe('a\n');
    expect(updated.data.structuredPatch[0]?.lines).toEqual(['-a', '+b']);
    expect(await readFile(path, 'utf8')).toBe('b\n');
  });

  it('refuses to overwrite a file that was not read, or read only in part', async () => {
    const path = join(dir, 'x.txt');
    await writeFile(path, 'one\ntwo\nthree\n');
    await expect(write({ file_path: path, content: 'z' })).rejects.toThrow(
      /has not been read in this conversation/,
    );
    await read(path, { limit: 1 });
    await expect(write({ file_path: path, content: 'z' })).rejects.toThrow(/Only part of/);
    await read(path);
    await write({ file_path: path, content: 'z' });
    expect(await readFile(path, 'utf8')).toBe('z');
  });

  it('refuses when the file changed after it was read, but not after a mere touch', async () => {
    const path = join(dir, 'x.txt');
    await writeFile(path, 'v1');
    await read(path);
    await utimes(path, new Date(), new Date(Date.now() + 5000));
    await write({ file_path: path, content: 'v2' });
    await writeFile(path, 'changed outside');
    await expect(write({ file_path: path, content: 'v3' })).rejects.toThrow(
      /was modified since you last read it/,
    );
    expect(await readFile(path, 'utf8')).toBe('changed outside');
  });

  it('keeps CRLF line endings and a BOM of an existing file', async () => {
    const path = join(dir, 'win.txt');
    await writeFile(path, Buffer.from('\ufeffold\r\nfile\r\n'));
    await read(path);
    await write({ file_path: path, content: 'new\ncontent\n' });
    expect(await readFile(path)).toEqual(Buffer.from('\ufeffnew\r\ncontent\r\n'));
  });

  it('keeps UTF-16LE encoding', async () => {
    const path = join(dir, 'u16.txt');
    await writeFile(path, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('alt', 'utf16le')]));
    await read(path);
    await write({ file_path: path, content: 'neü' });
    expect(await readFile(path)).toEqual(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('neü', 'utf16le')]),
    );
  });

  it('refuses a directory and reports a blocked parent without leaving debris', async () => {
    await expect(write({ file_path: dir, content: 'x' })).rejects.toThrow(/is a directory/);
    await writeFile(join(dir, 'plain'), 'intact');
    await expect(write({ file_path: join(dir, 'plain', 'child.txt'), content: 'x' })).rejects.toThrow(
      /is a file, not a directory/,
    );
    expect(await readdir(dir)).toEqual(['plain']);
    expect(await readFile(join(dir, 'plain'), 'utf8')).toBe('intact');
  });

  it('is a write-tier tool that is neither read-only nor concurrency-safe', () => {
    const input = { file_path: '/a/b.txt', content: '' };
    expect(writeTool.tier).toBe('write');
    expect(writeTool.isReadOnly(input)).toBe(false);
    expect(writeTool.isConcurrencySafe(input)).toBe(false);
    expect(writeTool.description(input)).toBe('Write /a/b.txt');
  });
});
