/**
 * The file tools as the model uses them (Read, then Edit/MultiEdit/Write/NotebookEdit) on files
 * in every encoding and line-ending style, checked byte for byte on disk: what a change did not
 * touch stays exactly as it was, and a character the encoding cannot hold is refused.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolUseContext } from '../../context';
import { editTool } from '../edit';
import { multiEditTool } from '../multi-edit';
import { notebookEditTool } from '../notebook-edit';
import { readTool } from '../read';
import { writeTool } from '../write';
import { bytes, ENCODING_FIXTURES } from './encoding-fixtures';
import { callTool, resultText, tempProjectPerTest } from './test-context';

let dir: string;
let context: ToolUseContext;
tempProjectPerTest((project) => {
  ({ dir, context } = project);
});

async function fixture(name: string, content: Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}
const read = async (path: string) =>
  resultText(readTool, await callTool(readTool, { file_path: path }, context));
const edit = (path: string, old_string: string, new_string: string) =>
  callTool(editTool, { file_path: path, old_string, new_string }, context);
const utf16be = (text: string) =>
  Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

describe('Latin-1 files (not valid UTF-8)', () => {
  it('Read shows the bytes as Latin-1 characters, and Edit matches them and keeps every other byte', async () => {
    const path = await fixture('old.txt', ENCODING_FIXTURES.latin1.bytes);
    expect(await read(path)).toBe('1\tcafé Straße ÿ\n2\tx');
    await edit(path, 'x', 'y');
    expect(await readFile(path)).toEqual(
      bytes('caf', [0xe9], ' Stra', [0xdf, 0x65], ' ', [0xff, 0x0a], 'y\n'),
    );
    await edit(path, 'café', 'Café ñ');
    expect(await readFile(path)).toEqual(
      bytes('Caf', [0xe9], ' ', [0xf1], ' Stra', [0xdf, 0x65], ' ', [0xff, 0x0a], 'y\n'),
    );
  });

  it('refuses an edit that would insert a character Latin-1 cannot hold, and writes nothing', async () => {
    const path = await fixture('old.txt', ENCODING_FIXTURES.latin1.bytes);
    await read(path);
    await expect(edit(path, 'x', '5 €')).rejects.toThrow(
      /old\.txt is stored as Latin-1 .* cannot hold "€" \(U\+20AC, in line 2 of the new text\)\. Nothing was written\./,
    );
    await expect(
      callTool(
        multiEditTool,
        {
          file_path: path,
          edits: [
            { old_string: 'x', new_string: 'z' },
            { old_string: 'café', new_string: 'naïve 😀' },
          ],
        },
        context,
      ),
    ).rejects.toThrow(/cannot hold "😀" \(U\+1F600, in line 1 of the new text\)/);
    expect(await readFile(path)).toEqual(ENCODING_FIXTURES.latin1.bytes);
  });

  it('keeps Windows-1252 "smart quotes" (bytes 0x93/0x94) and CRLF as they are', async () => {
    const path = await fixture('win.txt', ENCODING_FIXTURES.latin1Crlf.bytes);
    await read(path);
    await edit(path, 'quoted', 'quoted\nnext');
    expect(await readFile(path)).toEqual(bytes([0x93], 'quoted\r\nnext', [0x94, 0x0d, 0x0a]));
  });

  it('Write keeps the encoding of the file it replaces and refuses what it cannot hold', async () => {
    const path = await fixture('old.txt', ENCODING_FIXTURES.latin1.bytes);
    await read(path);
    await expect(callTool(writeTool, { file_path: path, content: 'Preis: 5 €\n' }, context)).rejects.toThrow(
      /cannot hold "€".*iconv -f latin1 -t utf-8/,
    );
    expect(await readFile(path)).toEqual(ENCODING_FIXTURES.latin1.bytes);
    await callTool(writeTool, { file_path: path, content: 'Größe: 5 ½\n' }, context);
    expect(await readFile(path)).toEqual(bytes('Gr', [0xf6, 0xdf], 'e: 5 ', [0xbd], '\n'));
  });

  it('NotebookEdit writes what Latin-1 cannot hold as a JSON escape and keeps the rest', async () => {
    const notebook = bytes(
      '{\n "cells": [\n  {\n   "cell_type": "markdown",\n   "metadata": {},\n   "source": ["caf',
      [0xe9],
      '"]\n  }\n ],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 2\n}\n',
    );
    const path = await fixture('old.ipynb', notebook);
    await read(path);
    await callTool(
      notebookEditTool,
      {
        notebook_path: path,
        edit_mode: 'insert',
        cell_id: 'cell-0',
        cell_type: 'markdown',
        new_source: '5 €',
      },
      context,
    );
    const written = await readFile(path);
    expect(written.includes(bytes('"caf', [0xe9], '"'))).toBe(true);
    expect(written.toString('latin1')).toContain('"5 \\u20ac"');
    expect(JSON.parse(written.toString('latin1')).cells[1].source).toEqual(['5 €']);
  });
});

describe('UTF-16, BOMs and line endings', () => {
  it('edits UTF-16 BE and LE files in their own encoding, BOM and line endings', async () => {
    const be = await fixture('be.txt', ENCODING_FIXTURES.utf16be.bytes);
    expect(await read(be)).toBe('1\tgrüß\n2\t€ 😀');
    await edit(be, 'grüß', 'Grüße');
    expect(await readFile(be)).toEqual(utf16be('Grüße\n€ 😀\n'));

    const le = await fixture('le.txt', ENCODING_FIXTURES.utf16le.bytes);
    await read(le);
    await callTool(
      multiEditTool,
      {
        file_path: le,
        edits: [
          { old_string: 'grüß\n', new_string: 'grüß\nneu\n' },
          { old_string: '😀', new_string: '🙂' },
        ],
      },
      context,
    );
    expect(await readFile(le)).toEqual(utf16le('grüß\r\nneu\r\n€ 🙂\n'));
  });

  it('keeps a UTF-8 BOM', async () => {
    const path = await fixture('bom.txt', ENCODING_FIXTURES.utf8Bom.bytes);
    expect(await read(path)).toBe('1\té');
    await edit(path, 'é', 'è\nà');
    expect(await readFile(path)).toEqual(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('è\r\nà\r\n')]),
    );
  });

  it('keeps CR-only line breaks: Read shows the lines, Edit and Write put CRs back', async () => {
    const path = await fixture('mac.txt', ENCODING_FIXTURES.crOnly.bytes);
    expect(await read(path)).toBe('1\ta\n2\tb\n3\tc');
    const result = await edit(path, 'b\nc', 'b\nb2\nc');
    expect(resultText(editTool, result)).toContain('+b2');
    expect((await readFile(path)).toString()).toBe('a\rb\rb2\rc');
    await read(path);
    await callTool(writeTool, { file_path: path, content: 'x\ny\n' }, context);
    expect((await readFile(path)).toString()).toBe('x\ry\r');
  });

  it('leaves the other line endings of a mixed file alone', async () => {
    const path = await fixture('mixed.txt', ENCODING_FIXTURES.mixed.bytes);
    await read(path);
    await edit(path, 'c', 'C');
    expect((await readFile(path)).toString()).toBe('a\r\nb\nC\rd\n');
  });

  it('refuses half of a surrogate pair in a UTF-8 file', async () => {
    const path = await fixture('u.txt', Buffer.from('emoji: x\n'));
    await read(path);
    await expect(edit(path, 'x', '\ud83d')).rejects.toThrow(/cannot hold half of a surrogate pair \(U\+D83D/);
    expect((await readFile(path)).toString()).toBe('emoji: x\n');
  });
});
