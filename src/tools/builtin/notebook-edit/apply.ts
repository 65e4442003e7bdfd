/** The in-memory notebook change of NotebookEdit: replace, insert or delete one cell. */
import { randomBytes } from 'node:crypto';
import { ToolError } from '../../tool';
import { findCellIndex, joinSource, type Notebook, type NotebookCell, splitSource } from '../shared/notebook';

export type NotebookEditMode = 'replace' | 'insert' | 'delete';

export type NotebookChange = {
  notebook: Notebook;
  cellId?: string;
  cellType: string;
  oldSource?: string;
};

export type NotebookEditRequest = {
  cellId?: string;
  newSource: string;
  cellType?: 'code' | 'markdown';
  editMode: NotebookEditMode;
};

/** Applies the change to `notebook` (mutating it) and reports what was done. */
export function applyNotebookEdit(
  notebook: Notebook,
  request: NotebookEditRequest,
  path: string,
): NotebookChange {
  const { cellId, editMode } = request;
  const index = cellId === undefined ? -1 : findCellIndex(notebook, cellId);
  if (cellId !== undefined && index < 0) {
    throw new ToolError(
      `Cell "${cellId}" was not found in ${path} (${notebook.cells.length} cells). Use a cell id shown by Read, or the form cell-N (0-based).`,
    );
  }
  if (editMode === 'insert') {
    if (!request.cellType) throw new ToolError('cell_type is required when inserting a cell.');
    const cell = newCell(notebook, request.cellType, request.newSource);
    notebook.cells.splice(index + 1, 0, cell);
    return { notebook, cellId: cell.id ?? `cell-${index + 1}`, cellType: request.cellType };
  }
  if (cellId === undefined) throw new ToolError(`cell_id is required to ${editMode} a cell.`);
  const cell = notebook.cells[index]!;
  const oldSource = joinSource(cell.source);
  if (editMode === 'delete') {
    notebook.cells.splice(index, 1);
    return { notebook, cellId, cellType: cell.cell_type, oldSource };
  }
  const cellType = request.cellType ?? cell.cell_type;
  // Jupyter writes sources as lists of lines; keep whichever form this cell used.
  cell.source = Array.isArray(cell.source) ? splitSource(request.newSource) : request.newSource;
  cell.cell_type = cellType;
  if (cellType === 'code') {
    // The old outputs described the old code; stale results would mislead whoever reads them.
    cell.outputs = [];
    cell.execution_count = null;
  } else {
    delete cell.outputs;
    delete cell.execution_count;
  }
  return { notebook, cellId, cellType, oldSource };
}

/** A cell with the keys in nbformat's sorted order, with an id when the notebook uses ids. */
function newCell(notebook: Notebook, cellType: 'code' | 'markdown', source: string): NotebookCell {
  const usesIds =
    (notebook.nbformat ?? 4) > 4 ||
    ((notebook.nbformat ?? 4) === 4 && (notebook.nbformat_minor ?? 0) >= 5) ||
    notebook.cells.some((cell) => typeof cell.id === 'string');
  const id = usesIds ? uniqueId(notebook) : undefined;
  const cell: NotebookCell =
    cellType === 'code'
      ? { cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: splitSource(source) }
      : { cell_type: 'markdown', metadata: {}, source: splitSource(source) };
  if (!id) return cell;
  const { cell_type, ...rest } = cell;
  return { cell_type, ...(cellType === 'code' ? { execution_count: null } : {}), id, ...rest };
}

function uniqueId(notebook: Notebook): string {
  const taken = new Set(notebook.cells.map((cell) => cell.id));
  let id = randomBytes(4).toString('hex');
  while (taken.has(id)) id = randomBytes(4).toString('hex');
  return id;
}
