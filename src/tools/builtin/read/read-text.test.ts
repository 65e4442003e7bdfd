import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolUseContext } from '../../context';
import { callTool, resultText, tempProjectPerTest } from '../shared/test-context';
import { type ReadOutput, readTool } from './index';

let dir: string;
let context: ToolUseContext;
tempProjectPerTest((project) => {
  ({ dir, context } = project);
});

const read = (input: Record<string, unknown>) => callTool<ReadOutput>(readTool, input, context);
const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('Read: text', () => {
  it('numbers lines cat -n style and records a full read', async () => {
    await writeFile(join(dir, 'a.txt'), 'alpha\nbeta\n');
    const result = await read({ file_path: 'a.txt' });
    expect(resultText(readTool, result)).toBe('1\talpha\n2\tbeta');
    expect(result.data).toEqual({
      type: 'text',
      file: {
        filePath: join(dir, 'a.txt'),
        content: 'alpha\nbeta',
        numLines: 2,
        startLine: 1,
        totalLines: 2,
      },
    });
    const entry = context.readFileState.get(join(dir, 'a.txt'));
    expect(entry?.partial).toBeUndefined();
    expect(entry?.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('pages with offset and limit, says how to read on, and records a partial read', async () => {
    await writeFile(join(dir, 'long.txt'), lines(3000));
    const first = await read({ file_path: join(dir, 'long.txt') });
    const text = resultText(readTool, first);
    expect(text.split('\n')[1999]).toBe('2000\tline 2000');
    expect(text).toContain('Showing lines 1-2000 of 3000. Read on with offset: 2001.');
    expect(context.readFileState.get(join(dir, 'long.txt'))?.partial).toEqual({ offset: 1, limit: 2000 });

    const page = await read({ file_path: join(dir, 'long.txt'), offset: 2500, limit: 3 });
    expect(resultText(readTool, page)).toBe(
      '2500\tline 2500\n2501\tline 2501\n2502\tline 2502\n\n(Showing lines 2500-2502 of 3000. Read on with offset: 2503.)',
    );
    const past = await read({ file_path: join(dir, 'long.txt'), offset: 4000 });
    expect(resultText(readTool, past)).toContain('offset 4000 is past its end');
  });

  it('cuts a 1 MB single line and marks the read partial', async () => {
    await writeFile(join(dir, 'min.js'), 'x'.repeat(1024 * 1024));
    const result = await read({ file_path: join(dir, 'min.js') });
    const text = resultText(readTool, result);
    expect(text.length).toBeLessThan(3000);
    expect(text).toContain(`[line cut: ${1024 * 1024 - 2000} more characters]`);
    expect(text).toContain('1 line(s) longer than 2000 characters were cut');
    expect(context.readFileState.get(join(dir, 'min.js'))?.partial).toEqual({ offset: 1, limit: 1 });
  });

  it('stops at the output budget and sets truncatedByTokenCap', async () => {
    await writeFile(join(dir, 'wide.txt'), `${'y'.repeat(1500)}\n`.repeat(200));
    const result = await read({ file_path: join(dir, 'wide.txt') });
    expect(result.data.type === 'text' && result.data.file.truncatedByTokenCap).toBe(true);
    expect(result.data.type === 'text' && result.data.file.numLines).toBe(66);
    const large = await read({ file_path: join(dir, 'wide.txt'), allow_large: true });
    expect(large.data.type === 'text' && large.data.file.numLines).toBe(200);
  });

  it('says an empty file is empty', async () => {
    await writeFile(join(dir, 'empty.txt'), '');
    expect(resultText(readTool, await read({ file_path: join(dir, 'empty.txt') }))).toBe(
      '(The file is empty.)',
    );
  });

  it('reads CRLF, BOM and UTF-16LE files as clean text', async () => {
    await writeFile(join(dir, 'win.txt'), Buffer.from('\ufeffone\r\ntwo\r\n'));
    expect(resultText(readTool, await read({ file_path: join(dir, 'win.txt') }))).toBe('1\tone\n2\ttwo');
    await writeFile(
      join(dir, 'u16.txt'),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('grüß\nok', 'utf16le')]),
    );
    expect(resultText(readTool, await read({ file_path: join(dir, 'u16.txt') }))).toBe('1\tgrüß\n2\tok');
  });

  it('refuses a missing file and suggests similar names', async () => {
    await writeFile(join(dir, 'index.ts'), '');
    await expect(read({ file_path: join(dir, 'index.js') })).rejects.toThrow(
      `File does not exist: ${join(dir, 'index.js')}. The current working directory is ${dir}. Did you mean ${join(dir, 'index.ts')}?`,
    );
  });

  it('refuses a directory with a hint to list it', async () => {
    await mkdir(join(dir, 'sub'));
    await expect(read({ file_path: join(dir, 'sub') })).rejects.toThrow(/is a directory\. List it with Glob/);
  });

  it('refuses binary files by content and by extension', async () => {
    await writeFile(join(dir, 'data.txt'), Buffer.from([0x41, 0x00, 0x42]));
    await expect(read({ file_path: join(dir, 'data.txt') })).rejects.toThrow(/binary file/);
    await writeFile(join(dir, 'a.zip'), 'PK');
    await expect(read({ file_path: join(dir, 'a.zip') })).rejects.toThrow(/binary file/);
  });

  it('rejects pages for non-PDF files', async () => {
    await writeFile(join(dir, 'a.txt'), 'x');
    await expect(read({ file_path: join(dir, 'a.txt'), pages: '1' })).rejects.toThrow(/PDF files only/);
  });

  it('is read-only, concurrency-safe and labelled by path', () => {
    const input = { file_path: '/x/y.ts' };
    expect(readTool.isReadOnly(input)).toBe(true);
    expect(readTool.isConcurrencySafe(input)).toBe(true);
    expect(readTool.tier).toBe('read');
    expect(readTool.description(input)).toBe('Read /x/y.ts');
    expect(readTool.inputJsonSchema.additionalProperties).toBe(false);
  });
});
