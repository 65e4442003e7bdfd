/** NotebookEdit: replaces, inserts or deletes one cell of a Jupyter notebook the model has read. */
import { extname } from 'node:path';
import { writeFileAtomic } from '../../../config/atomic-write';
import * as z from '../../../lib/zod';
import type { ToolUseContext } from '../../context';
import { buildTool, ToolError } from '../../tool';
import { precheckFileChange } from '../shared/change-precheck';
import { loadFreshFile, recordFileState } from '../shared/freshness';
import { describeFsError } from '../shared/fs-errors';
import { detectNotebookStyle, notebookLanguage, parseNotebook, serializeNotebook } from '../shared/notebook';
import { displayPath, resolveToolPath } from '../shared/paths';
import { fromStoredText, toStoredText } from '../shared/stored-text';
import { type TextEncodingKind, withLineEnding } from '../shared/text-format';
import { withWriteDiagnostics } from '../shared/write-diagnostics';
import { applyNotebookEdit } from './apply';
import prompt from './prompt.md';

const inputSchema = z.lazy(() =>
  z.strictObject({
    notebook_path: z.string().check(z.describe('Absolute path of the .ipynb file')),
    cell_id: z
      .optional(z.string())
      .check(
        z.describe(
          'The cell to change, by id (or cell-N, 0-based). On insert the new cell goes after it; without it, first',
        ),
      ),
    new_source: z.string().check(z.describe('The new source of the cell')),
    cell_type: z
      .optional(z.enum(['code', 'markdown']))
      .check(z.describe('The cell type; required for insert')),
    edit_mode: z
      .optional(z.enum(['replace', 'insert', 'delete']))
      .check(z.describe('replace (default), insert or delete')),
  }),
);
export type NotebookEditInput = z.infer<typeof inputSchema>;

export type NotebookEditOutput = {
  new_source: string;
  cell_type: string;
  language: string;
  edit_mode: 'replace' | 'insert' | 'delete';
  notebook_path: string;
  original_file: string;
  updated_file: string;
  old_source?: string;
  cell_id?: string;
  error?: string;
};

/**
 * A notebook is JSON, where any character may be written as a `\uXXXX` escape; in a notebook
 * stored as Latin-1 the characters beyond it are escaped instead of refused. (Outside strings JSON
 * is ASCII, so every such character is inside a string.)
 */
function escapeForEncoding(json: string, encoding: TextEncodingKind): string {
  if (encoding !== 'latin1') return json;
  return json.replace(
    /[^\u0000-\u00ff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const notNotebookText = (path: string): string =>
  `${path} is not a Jupyter notebook (.ipynb); use Edit for other files.`;

/** The change worked out in memory from a fresh read of the notebook; nothing is written. */
async function planNotebookEdit(input: NotebookEditInput, context: ToolUseContext, path: string) {
  if (extname(path).toLowerCase() !== '.ipynb') throw new ToolError(notNotebookText(path));
  const fresh = await loadFreshFile(context, path);
  const stored = fromStoredText(fresh.bytes);
  const text = stored.text;
  const notebook = parseNotebook(text, path);
  const editMode = input.edit_mode ?? 'replace';
  const change = applyNotebookEdit(
    notebook,
    { cellId: input.cell_id, newSource: input.new_source, cellType: input.cell_type, editMode },
    path,
  );
  return { stored, text, notebook, editMode, change };
}

const plainNotebookEditTool = buildTool<NotebookEditInput, NotebookEditOutput>({
  name: 'NotebookEdit',
  tier: 'write',
  access: 'file-edit',
  inputSchema,
  prompt,
  description: (input) => `Edit notebook ${displayPath(input.notebook_path)}`,
  toAutoClassifierInput: (input) => `${input.notebook_path}: ${input.new_source}`,
  mapResultToContent: (output) => {
    if (output.edit_mode === 'delete') return `Deleted cell ${output.cell_id} from ${output.notebook_path}.`;
    if (output.edit_mode === 'insert')
      return `Inserted ${output.cell_type} cell ${output.cell_id} into ${output.notebook_path}.`;
    return `Replaced the source of cell ${output.cell_id} in ${output.notebook_path}.`;
  },
  validateInput(input, context) {
    const path = resolveToolPath(input.notebook_path, context.cwd);
    if (extname(path).toLowerCase() !== '.ipynb')
      return Promise.resolve({ ok: false, message: notNotebookText(path) });
    return precheckFileChange(context, path, {
      missing: async () => `${path} does not exist.`,
      dryRun: () => planNotebookEdit(input, context, path),
    });
  },
  async call(input, context) {
    const path = resolveToolPath(input.notebook_path, context.cwd);
    const { stored, text, notebook, editMode, change } = await planNotebookEdit(input, context, path);
    const updated = escapeForEncoding(
      serializeNotebook(change.notebook, detectNotebookStyle(text)),
      stored.format.encoding,
    );
    const bytes = toStoredText(withLineEnding(updated, stored.editLineEnding), stored, path);
    try {
      await writeFileAtomic(path, bytes);
    } catch (error) {
      throw new ToolError(`${describeFsError(error, path)} The notebook was not changed.`);
    }
    await recordFileState(context, path, bytes);
    const data: NotebookEditOutput = {
      new_source: input.new_source,
      cell_type: change.cellType,
      language: notebookLanguage(notebook),
      edit_mode: editMode,
      notebook_path: path,
      original_file: text,
      updated_file: updated,
    };
    if (change.cellId !== undefined) data.cell_id = change.cellId;
    if (change.oldSource !== undefined) data.old_source = change.oldSource;
    return { data };
  },
});

/** The tool as sessions get it: new diagnostics its write caused come with its result. */
export const notebookEditTool = withWriteDiagnostics(plainNotebookEditTool, (input, context) => [
  resolveToolPath(input.notebook_path, context.cwd),
]);
