import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolUseContext } from '../../context';
import { readTool } from '../read';
import { callTool, resultText, tempProjectPerTest } from '../shared/test-context';
import { type MultiEditOutput, multiEditTool } from './index';

let dir: string;
let context: ToolUseContext;
let path: string;
tempProjectPerTest((project) => {
  ({ dir, context } = project);
  path = join(dir, 'm.py');
});

const multiEdit = (edits: Array<Record<string, unknown>>, file_path = path) =>
  callTool<MultiEditOutput>(multiEditTool, { file_path, edits }, context);

describe('MultiEdit', () => {
  it('applies edits in order, each on the result of the one before', async () => {
    await writeFile(path, 'a = 1\nb = 2\n');
    await callTool(readTool, { file_path: path }, context);
    const result = await multiEdit([
      { old_string: 'a = 1', new_string: 'alpha = 1' },
      { old_string: 'alpha = 1\nb', new_string: 'alpha = 1\nbeta' },
      { old_string: '= ', new_string: ':= ', replace_all: true },
    ]);
    expect(await readFile(path, 'utf8')).toBe('alpha := 1\nbeta := 2\n');
    expect(result.data.originalFile).toBe('a = 1\nb = 2\n');
    expect(result.data.structuredPatch).toHaveLength(1);
    expect(resultText(multiEditTool, result)).toContain(`Edited ${path} (3 edits).`);
  });

  it('writes nothing when any edit fails, and names the failed edit', async () => {
    await writeFile(path, 'x = 1\ny = 2\n');
    await callTool(readTool, { file_path: path }, context);
    await expect(
      multiEdit([
        { old_string: 'x = 1', new_string: 'x = 10' },
        { old_string: 'z = 3', new_string: 'z = 30' },
      ]),
    ).rejects.toThrow(
      /^invalid input: Edit 2 of 2 failed: old_string was not found .* No changes were written\.$/s,
    );
    await expect(
      multiEdit([
        { old_string: 'x', new_string: 'x' },
        { old_string: 'y', new_string: 'w' },
      ]),
    ).rejects.toThrow(/^invalid input: Edit 1 of 2 failed: old_string and new_string are identical/);
    expect(await readFile(path, 'utf8')).toBe('x = 1\ny = 2\n');
    expect(await readdir(dir)).toEqual(['m.py']);
  });

  it('creates a file when the first edit has an empty old_string', async () => {
    const fresh = join(dir, 'new.py');
    await multiEdit(
      [
        { old_string: '', new_string: 'print("hi")\n' },
        { old_string: 'hi', new_string: 'hello' },
      ],
      fresh,
    );
    expect(await readFile(fresh, 'utf8')).toBe('print("hello")\n');
  });

  it('refuses an unread file and rejects an empty edit list', async () => {
    await writeFile(path, 'x');
    await expect(multiEdit([{ old_string: 'x', new_string: 'y' }])).rejects.toThrow(/has not been read/);
    await expect(multiEdit([])).rejects.toMatchObject({
      issues: [{ code: 'too_small', path: ['edits'], minimum: 1 }],
    });
  });
});
