import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolUseContext } from '../../context';
import { readTool } from '../read';
import { callTool, resultText, tempProjectPerTest } from '../shared/test-context';
import { type EditOutput, editTool } from './index';

let dir: string;
let context: ToolUseContext;
let path: string;
tempProjectPerTest((project) => {
  ({ dir, context } = project);
  path = join(dir, 'a.ts');
});

const edit = (input: Record<string, unknown>) =>
  callTool<EditOutput>(editTool, { file_path: path, ...input }, context);
const read = (file_path = path) => callTool(readTool, { file_path }, context);

describe('Edit', () => {
  it('replaces a unique string, reports a diff and supports Read → Edit → Edit', async () => {
    await writeFile(path, 'const a = 1;\nconst b = 2;\n');
    await read();
    const first = await edit({ old_string: 'const a = 1;', new_string: 'const a = 10;' });
    expect(first.data).toMatchObject({
      filePath: path,
      oldString: 'const a = 1;',
      newString: 'const a = 10;',
      originalFile: 'const a = 1;\nconst b = 2;\n',
      userModified: false,
      replaceAll: false,
    });
    expect(first.data.structuredPatch[0]?.lines).toEqual([
      '-const a = 1;',
      '+const a = 10;',
      ' const b = 2;',
    ]);
    expect(resultText(editTool, first)).toContain('@@ -1,2 +1,2 @@\n-const a = 1;\n+const a = 10;');
    await edit({ old_string: 'const b = 2;', new_string: 'const b = 20;' });
    expect(await readFile(path, 'utf8')).toBe('const a = 10;\nconst b = 20;\n');
  });

  it('refuses an unread file and a file changed since it was read', async () => {
    await writeFile(path, 'x = 1\n');
    await expect(edit({ old_string: 'x', new_string: 'y' })).rejects.toThrow(/has not been read/);
    await read();
    await writeFile(path, 'x = 2\n');
    await expect(edit({ old_string: 'x', new_string: 'y' })).rejects.toThrow(
      /was modified since you last read it/,
    );
    expect(await readFile(path, 'utf8')).toBe('x = 2\n');
  });

  it('refuses identical strings and non-unique matches, naming count and lines', async () => {
    await writeFile(path, 'foo\nbar\nfoo\n');
    await read();
    await expect(edit({ old_string: 'foo', new_string: 'foo' })).rejects.toThrow(/identical/);
    await expect(edit({ old_string: 'foo', new_string: 'baz' })).rejects.toThrow(
      /occurs 2 times .* \(at lines 1, 3\)\. Include more surrounding lines .* replace_all: true/,
    );
    const all = await edit({ old_string: 'foo', new_string: 'baz', replace_all: true });
    expect(all.data.replaceAll).toBe(true);
    expect(resultText(editTool, all)).toContain('(2 replacements)');
    expect(await readFile(path, 'utf8')).toBe('baz\nbar\nbaz\n');
  });

  it('shows the exact file text when old_string differs by whitespace, quotes or nbsp', async () => {
    await writeFile(path, 'if (x) {\n\treturn ‘ok’;\n}\nconst label\u00a0= "a";\n');
    await read();
    await expect(edit({ old_string: "if (x) {\n  return 'ok';", new_string: 'z' })).rejects.toThrow(
      /matches lines 1-2\. The file uses: tab \(U\+0009\), left single quote ‘ \(U\+2018\), right single quote ’ \(U\+2019\)\.[\s\S]*```\nif \(x\) \{\n\treturn ‘ok’;\n```/,
    );
    await expect(edit({ old_string: 'const label = "a";', new_string: 'z' })).rejects.toThrow(
      /non-breaking space \(U\+00A0\)/,
    );
  });

  it('shows the most similar lines when nothing matches even loosely', async () => {
    await writeFile(path, 'function total(items) {\n  return items.reduce((a, b) => a + b, 0);\n}\n');
    await read();
    await expect(
      edit({ old_string: '  return items.reduce((acc, b) => acc + b, 0);', new_string: 'z' }),
    ).rejects.toThrow(/most similar text is line 2 \(\d+% similar\):\n```\n2\t {2}return items\.reduce/);
  });

  it("matches the model's \\n against CRLF and keeps the file CRLF with its BOM", async () => {
    await writeFile(path, Buffer.from('\ufeffone\r\ntwo\r\nthree\r\n'));
    await read();
    await edit({ old_string: 'one\ntwo', new_string: 'one\nand a half\ntwo' });
    expect(await readFile(path)).toEqual(Buffer.from('\ufeffone\r\nand a half\r\ntwo\r\nthree\r\n'));
  });

  it('edits a UTF-16LE file in its own encoding', async () => {
    await writeFile(path, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('größe = 1\n', 'utf16le')]));
    await read();
    await edit({ old_string: '= 1', new_string: '= 2' });
    expect(await readFile(path)).toEqual(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('größe = 2\n', 'utf16le')]),
    );
  });

  it('creates a new file from an empty old_string, and refuses that on a non-empty file', async () => {
    const fresh = join(dir, 'sub', 'new.ts');
    const created = await callTool<EditOutput>(
      editTool,
      { file_path: fresh, old_string: '', new_string: 'hi\n' },
      context,
    );
    expect(created.data.originalFile).toBeNull();
    expect(resultText(editTool, created)).toBe(`Created ${fresh}.`);
    expect(await readFile(fresh, 'utf8')).toBe('hi\n');
    await expect(
      callTool(editTool, { file_path: fresh, old_string: '', new_string: 'again' }, context),
    ).rejects.toThrow(/has content/);
  });

  it('refuses a missing file with suggestions, a directory, a binary file and a notebook', async () => {
    await writeFile(join(dir, 'a.tsx'), '');
    await expect(edit({ old_string: 'a', new_string: 'b' })).rejects.toThrow(
      `Did you mean ${join(dir, 'a.tsx')}?`,
    );
    await expect(
      callTool(editTool, { file_path: dir, old_string: 'a', new_string: 'b' }, context),
    ).rejects.toThrow(/is a directory/);
    const binary = join(dir, 'blob.dat');
    await writeFile(binary, Buffer.from([1, 0, 2]));
    context.readFileState.set(binary, {
      hash: (await import('../shared/hash')).hashContent(Buffer.from([1, 0, 2])),
      mtimeMs: 0,
      readAt: 0,
    });
    await expect(
      callTool(editTool, { file_path: binary, old_string: 'a', new_string: 'b' }, context),
    ).rejects.toThrow(/binary file/);
    await expect(
      callTool(editTool, { file_path: join(dir, 'n.ipynb'), old_string: 'a', new_string: 'b' }, context),
    ).rejects.toThrow(/NotebookEdit/);
  });

  it('accepts a partial read (an exact match proves the model saw the text)', async () => {
    await writeFile(path, Array.from({ length: 3000 }, (_, i) => `l${i + 1}`).join('\n'));
    await callTool(readTool, { file_path: path, offset: 2990, limit: 5 }, context);
    await edit({ old_string: 'l2991\n', new_string: 'L2991\n' });
    expect((await readFile(path, 'utf8')).split('\n')[2990]).toBe('L2991');
  });
});
