import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolUseContext } from '../../context';
import { readTool } from '../read';
import type { Notebook } from '../shared/notebook';
import { callTool, resultText, tempProjectPerTest } from '../shared/test-context';
import { type NotebookEditOutput, notebookEditTool } from './index';

const NOTEBOOK: Notebook = {
  cells: [
    { cell_type: 'markdown', id: 'md1', metadata: {}, source: ['# Title'] },
    {
      cell_type: 'code',
      execution_count: 3,
      id: 'code1',
      metadata: { tags: ['keep'] },
      outputs: [{ output_type: 'stream', name: 'stdout', text: ['old\n'] }],
      source: ['x = 1\n', 'print(x)'],
    },
    {
      cell_type: 'code',
      execution_count: 4,
      id: 'code2',
      metadata: {},
      outputs: [{ output_type: 'stream', name: 'stdout', text: ['two\n'] }],
      source: ['y = 2'],
    },
  ],
  metadata: { kernelspec: { name: 'python3', language: 'python' }, custom: { a: 1 } },
  nbformat: 4,
  nbformat_minor: 5,
};

let dir: string;
let context: ToolUseContext;
let path: string;
tempProjectPerTest(async (project) => {
  ({ dir, context } = project);
  path = join(dir, 'n.ipynb');
  await writeFile(path, `${JSON.stringify(NOTEBOOK, null, 1)}\n`);
});

const readNotebook = () => callTool(readTool, { file_path: path }, context);
const edit = (input: Record<string, unknown>) =>
  callTool<NotebookEditOutput>(notebookEditTool, { notebook_path: path, ...input }, context);
const onDisk = async () => {
  const text = await readFile(path, 'utf8');
  return { text, notebook: JSON.parse(text) as Notebook };
};

describe('NotebookEdit', () => {
  it('replaces a code cell, clearing its outputs and keeping everything else', async () => {
    await readNotebook();
    const result = await edit({ cell_id: 'code1', new_source: 'x = 2\nprint(x)' });
    const { text, notebook } = await onDisk();
    expect(notebook.cells[1]).toEqual({
      cell_type: 'code',
      execution_count: null,
      id: 'code1',
      metadata: { tags: ['keep'] },
      outputs: [],
      source: ['x = 2\n', 'print(x)'],
    });
    expect(notebook.cells[2]?.outputs).toEqual(NOTEBOOK.cells[2]?.outputs);
    expect(notebook.metadata).toEqual(NOTEBOOK.metadata);
    expect(text.startsWith('{\n "cells": [\n  {')).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    expect(result.data).toMatchObject({
      cell_id: 'code1',
      cell_type: 'code',
      language: 'python',
      edit_mode: 'replace',
      notebook_path: path,
      old_source: 'x = 1\nprint(x)',
      new_source: 'x = 2\nprint(x)',
    });
    expect(result.data.updated_file).toBe(text);
  });

  it('changes a cell type on replace and finds cells by the cell-N form', async () => {
    await readNotebook();
    await edit({ cell_id: 'cell-2', new_source: 'Some *notes*', cell_type: 'markdown' });
    const { notebook } = await onDisk();
    expect(notebook.cells[2]).toEqual({
      cell_type: 'markdown',
      id: 'code2',
      metadata: {},
      source: ['Some *notes*'],
    });
  });

  it('inserts after a given cell, or first without one, with a fresh id', async () => {
    await readNotebook();
    const after = await edit({
      cell_id: 'md1',
      new_source: 'import os',
      cell_type: 'code',
      edit_mode: 'insert',
    });
    await edit({ new_source: 'Intro', cell_type: 'markdown', edit_mode: 'insert' });
    const { notebook } = await onDisk();
    expect(notebook.cells.map((cell) => cell.cell_type)).toEqual([
      'markdown',
      'markdown',
      'code',
      'code',
      'code',
    ]);
    expect(notebook.cells[0]?.source).toEqual(['Intro']);
    const inserted = notebook.cells[2]!;
    expect(Object.keys(inserted)).toEqual([
      'cell_type',
      'execution_count',
      'id',
      'metadata',
      'outputs',
      'source',
    ]);
    expect(inserted.id).toMatch(/^[0-9a-f]{8}$/);
    expect(after.data.cell_id).toBe(inserted.id);
    expect(resultText(notebookEditTool, after)).toBe(`Inserted code cell ${inserted.id} into ${path}.`);
  });

  it('deletes a cell', async () => {
    await readNotebook();
    const result = await edit({ cell_id: 'code1', new_source: '', edit_mode: 'delete' });
    const { notebook } = await onDisk();
    expect(notebook.cells.map((cell) => cell.id)).toEqual(['md1', 'code2']);
    expect(result.data.old_source).toBe('x = 1\nprint(x)');
  });

  it('refuses bad requests without writing', async () => {
    await readNotebook();
    const before = await readFile(path, 'utf8');
    await expect(edit({ cell_id: 'nope', new_source: 'x' })).rejects.toThrow(
      /Cell "nope" was not found .*3 cells/,
    );
    await expect(edit({ new_source: 'x', edit_mode: 'insert' })).rejects.toThrow(/cell_type is required/);
    await expect(edit({ new_source: 'x' })).rejects.toThrow(/cell_id is required to replace/);
    const other = join(dir, 'a.py');
    await writeFile(other, '');
    await expect(edit({ notebook_path: other, new_source: 'x' })).rejects.toThrow(/not a Jupyter notebook/);
    expect(await readFile(path, 'utf8')).toBe(before);
  });

  it('requires a fresh Read and allows consecutive edits', async () => {
    await expect(edit({ cell_id: 'md1', new_source: '# New' })).rejects.toThrow(/has not been read/);
    await readNotebook();
    await edit({ cell_id: 'md1', new_source: '# New' });
    await edit({ cell_id: 'md1', new_source: '# Newer' });
    await writeFile(path, `${JSON.stringify(NOTEBOOK, null, 1)}\n`);
    await expect(edit({ cell_id: 'md1', new_source: '# Lost' })).rejects.toThrow(/was modified since/);
  });

  it('keeps a two-space indent, string sources and CRLF of a notebook written that way', async () => {
    const notebook = {
      ...NOTEBOOK,
      cells: [{ cell_type: 'markdown', metadata: {}, source: 'plain' }],
      nbformat_minor: 4,
    };
    await writeFile(path, JSON.stringify(notebook, null, 2).replace(/\n/g, '\r\n'));
    await readNotebook();
    await edit({ cell_id: 'cell-0', new_source: 'changed' });
    const text = await readFile(path, 'utf8');
    expect(text.startsWith('{\r\n  "cells": [\r\n    {')).toBe(true);
    expect(text.endsWith('}')).toBe(true);
    expect((JSON.parse(text) as Notebook).cells[0]?.source).toBe('changed');
    await edit({ new_source: 'next', cell_type: 'markdown', edit_mode: 'insert', cell_id: 'cell-0' });
    expect((JSON.parse(await readFile(path, 'utf8')) as Notebook).cells[1]?.id).toBeUndefined();
  });
});
