/**
 * Jupyter notebook (nbformat 4) parsing and writing, shared by Read and NotebookEdit. Unknown
 * fields are kept as they are so an edit changes only what it means to change.
 */
import { ToolError } from '../../tool';

export type NotebookOutput = {
  output_type: 'stream' | 'execute_result' | 'display_data' | 'error' | string;
  text?: string | string[];
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
  traceback?: string[];
  [key: string]: unknown;
};

export type NotebookCell = {
  cell_type: 'code' | 'markdown' | 'raw' | string;
  id?: string;
  source: string | string[];
  metadata?: Record<string, unknown>;
  outputs?: NotebookOutput[];
  execution_count?: number | null;
  [key: string]: unknown;
};

export type Notebook = {
  cells: NotebookCell[];
  metadata?: {
    kernelspec?: { language?: string; [key: string]: unknown };
    language_info?: { name?: string; [key: string]: unknown };
    [key: string]: unknown;
  };
  nbformat?: number;
  nbformat_minor?: number;
  [key: string]: unknown;
};

export function parseNotebook(text: string, path: string): Notebook {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ToolError(`${path} is not valid notebook JSON: ${(error as Error).message}`);
  }
  const cells = (value as { cells?: unknown } | null)?.cells;
  if (!Array.isArray(cells))
    throw new ToolError(`${path} is not a Jupyter notebook: it has no "cells" list.`);
  return value as Notebook;
}

/** Notebook sources are a string or a list of lines; both mean their concatenation. */
export function joinSource(source: string | string[] | undefined): string {
  if (source === undefined) return '';
  return Array.isArray(source) ? source.join('') : source;
}

/** The list-of-lines form Jupyter writes: each line keeps its `\n`, the last has none. */
export function splitSource(source: string): string[] {
  if (source === '') return [];
  const lines = source.split('\n').map((line) => `${line}\n`);
  const last = lines.length - 1;
  lines[last] = lines[last]!.slice(0, -1);
  if (lines[last] === '') lines.pop();
  return lines;
}

export function notebookLanguage(notebook: Notebook): string {
  return notebook.metadata?.language_info?.name ?? notebook.metadata?.kernelspec?.language ?? 'python';
}

/** The id the model uses for a cell: its own `id`, else its position as `cell-N` (0-based). */
export function cellIdOf(cell: NotebookCell, index: number): string {
  return typeof cell.id === 'string' && cell.id !== '' ? cell.id : `cell-${index}`;
}

/** Finds a cell by its `id` field, falling back to the `cell-N` index form; -1 when absent. */
export function findCellIndex(notebook: Notebook, cellId: string): number {
  const byId = notebook.cells.findIndex((cell) => cell.id === cellId);
  if (byId >= 0) return byId;
  const match = /^cell-(\d+)$/.exec(cellId);
  if (!match) return -1;
  const index = Number(match[1]);
  return index < notebook.cells.length ? index : -1;
}

export type NotebookStyle = { indent: string; trailingNewline: boolean };

/** The file's own indentation (Jupyter writes 1 space) so a rewrite diffs only where it changed. */
export function detectNotebookStyle(text: string): NotebookStyle {
  const indent = /^\{\r?\n([ \t]+)"/.exec(text)?.[1] ?? ' ';
  return { indent, trailingNewline: text.endsWith('\n') };
}

export function serializeNotebook(notebook: Notebook, style: NotebookStyle): string {
  return JSON.stringify(notebook, null, style.indent) + (style.trailingNewline ? '\n' : '');
}
