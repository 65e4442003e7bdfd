/**
 * What a read may cost: a page of a 200 MB file (streamed to, not loaded), a line of 200 MB (cut,
 * not buffered), and special files (refused, not waited on or read without end) — for Read and
 * for every tool that reads or changes a file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { open, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolUseContext } from '../../context';
import { editTool } from '../edit';
import { grepTool } from '../grep';
import { multiEditTool } from '../multi-edit';
import { notebookEditTool } from '../notebook-edit';
import { MAX_WHOLE_FILE_BYTES } from '../shared/regular-file';
import { callTool, resultText, tempProjectPerTest } from '../shared/test-context';
import { writeTool } from '../write';
import { type ReadOutput, readTool } from './index';
import { MAX_LINE_CHARS } from './text-view';

let dir: string;
let context: ToolUseContext;
tempProjectPerTest((project) => {
  ({ dir, context } = project);
});

const read = (input: Record<string, unknown>) => callTool<ReadOutput>(readTool, input, context);

describe('Read of a 200 MB file', () => {
  const SIZE = 200 * 1024 * 1024;
  const head = Array.from({ length: 1000 }, (_, i) => `head ${i + 1}\n`).join('');
  const tail = `\n${Array.from({ length: 1000 }, (_, i) => `tail ${i + 1}\n`).join('')}`;

  /**
   * Lines 1-1000 of text, line 1001 a hole of ~200 MB of NUL bytes (sparse: nothing is written
   * for it, so the disk is spared), then lines 1002-2001 of text.
   */
  async function bigFile(): Promise<string> {
    const path = join(dir, 'big.log');
    const handle = await open(path, 'w');
    await handle.write(head, 0);
    await handle.write(tail, SIZE - tail.length);
    await handle.close();
    return path;
  }

  it('shows a page near the start without reading the rest, and says the lines were not counted', async () => {
    const path = await bigFile();
    const result = await read({ file_path: path, offset: 10, limit: 3 });
    expect(result.data).toEqual({
      type: 'text',
      file: {
        filePath: path,
        content: 'head 10\nhead 11\nhead 12',
        numLines: 3,
        startLine: 10,
        // The lines seen before reading stopped: a lower bound.
        totalLines: expect.any(Number),
        largeFile: { sizeBytes: SIZE },
      },
    });
    expect(result.data.type === 'text' && result.data.file.totalLines).toBeGreaterThanOrEqual(12);
    const text = resultText(readTool, result);
    expect(text).toContain(
      '10\thead 10\n11\thead 11\n12\thead 12\n\n(Showing lines 10-12 of a 200.0 MB file;',
    );
    expect(text).toContain('its lines were not counted. Read on with offset: 13');
    expect(text).toContain('`wc -l`, `tail -n 100`');
    // Not loaded whole, so not recorded: the edit tools refuse such a file outright.
    expect(context.readFileState.has(path)).toBe(false);
    await expect(
      callTool(editTool, { file_path: path, old_string: 'head 1', new_string: 'x' }, context),
    ).rejects.toThrow(
      `${path} is 200.0 MB; Edit, MultiEdit, Write and NotebookEdit change files up to 64 MB.`,
    );
  });

  it('streams through a 200 MB line to the page after it, cutting that line with its length', async () => {
    const path = await bigFile();
    const result = await read({ file_path: path, offset: 1001, limit: 2 });
    const lineLength = SIZE - head.length - tail.length;
    const file = result.data.type === 'text' ? result.data.file : undefined;
    expect(file?.content.split('\n')).toEqual([
      `${'\u0000'.repeat(MAX_LINE_CHARS)}… [line cut: ${lineLength - MAX_LINE_CHARS} more characters]`,
      'tail 1',
    ]);
    expect(resultText(readTool, result)).toContain('1 line(s) longer than 2000 characters were cut');
  });
});

describe('Read of text within the whole-file bound', () => {
  it('counts every line, records the read for the edit tools and cuts a huge line', async () => {
    const path = join(dir, 'bundle.min.js');
    await writeFile(path, `${'x'.repeat(8 * 1024 * 1024)}\nsecond\n`);
    expect(8 * 1024 * 1024).toBeLessThan(MAX_WHOLE_FILE_BYTES);
    const result = await read({ file_path: path, limit: 1 });
    expect(resultText(readTool, result)).toContain(
      `[line cut: ${8 * 1024 * 1024 - MAX_LINE_CHARS} more characters]\n\n(Showing lines 1-1 of 2. Read on with offset: 2.`,
    );
    expect(context.readFileState.get(path)?.partial).toEqual({ offset: 1, limit: 1 });
    await callTool(editTool, { file_path: path, old_string: 'second', new_string: '2nd' }, context);
  });

  it.runIf(existsSync('/proc/self/status'))('reads a file that stat reports as empty (/proc)', async () => {
    const result = await read({ file_path: '/proc/self/status' });
    expect(resultText(readTool, result)).toMatch(/^1\tName:/);
  });
});

describe.runIf(process.platform !== 'win32')('special files', () => {
  function fifo(name = 'pipe'): string {
    const path = join(dir, name);
    execFileSync('mkfifo', [path]);
    return path;
  }

  it('Read refuses a FIFO at once instead of waiting for a writer', async () => {
    const path = fifo();
    await expect(read({ file_path: path })).rejects.toThrow(
      `${path} is a FIFO (named pipe), not a regular file; the file tools read regular files only`,
    );
    await expect(read({ file_path: path, offset: 5, limit: 1 })).rejects.toThrow(/is a FIFO/);
  });

  it.runIf(existsSync('/dev/zero'))(
    'Read refuses /dev/zero and a symlink to it instead of reading without end',
    async () => {
      await expect(read({ file_path: '/dev/zero' })).rejects.toThrow(/^\/dev\/zero is a character device/);
      await symlink('/dev/zero', join(dir, 'data.txt'));
      await symlink('/dev/zero', join(dir, 'pic.png'));
      await expect(read({ file_path: join(dir, 'data.txt') })).rejects.toThrow(
        `${join(dir, 'data.txt')} (a link to /dev/zero) is a character device`,
      );
      await expect(read({ file_path: join(dir, 'pic.png') })).rejects.toThrow(/a link to \/dev\/zero/);
    },
  );

  it('Edit, MultiEdit, Write and NotebookEdit refuse a FIFO (through a symlink too) and leave it a FIFO', async () => {
    const path = fifo();
    const notebook = fifo('n.ipynb');
    await symlink(path, join(dir, 'link.txt'));
    const change = /is a FIFO \(named pipe\), not a regular file; the file tools change regular files only\./;
    await expect(
      callTool(editTool, { file_path: path, old_string: 'a', new_string: 'b' }, context),
    ).rejects.toThrow(change);
    await expect(
      callTool(multiEditTool, { file_path: path, edits: [{ old_string: 'a', new_string: 'b' }] }, context),
    ).rejects.toThrow(change);
    await expect(
      callTool(writeTool, { file_path: join(dir, 'link.txt'), content: 'x' }, context),
    ).rejects.toThrow(/link\.txt \(a link to .*pipe\) is a FIFO/);
    await expect(
      callTool(notebookEditTool, { notebook_path: notebook, cell_id: 'cell-0', new_source: 'x' }, context),
    ).rejects.toThrow(change);
    expect(execFileSync('stat', ['-c', '%F', path]).toString().trim()).toBe('fifo');
  });

  it('Grep refuses a FIFO given as its path (ripgrep would wait on it)', async () => {
    const path = fifo();
    await expect(callTool(grepTool, { pattern: 'x', path }, context)).rejects.toThrow(/is a FIFO/);
  });
});
