/**
 * resolve: settles an edit ast_edit staged. Accept writes every file or none: each must still
 * hold what it held at staging (a half-applied structural rewrite leaves code that compiles under
 * neither form), each is judged as an Edit of it, and a failed write rolls back the ones before.
 */
import { readFile } from 'node:fs/promises';
import * as z from '../../../lib/zod';
import type { ToolUseContext } from '../../context';
import { buildTool, ToolError } from '../../tool';
import { judgeAsEdits } from '../ast/edit-permission';
import type { StagedEdit } from '../ast/staged-edits';
import { pathForModel } from '../glob/search-results';
import { recordFileState } from '../shared/freshness';
import { describeFsError } from '../shared/fs-errors';
import { writeAllOrNone } from '../shared/write-all';
import { checkWrites } from '../shared/write-check';
import prompt from './prompt.md';

const inputSchema = z.lazy(() =>
  z.strictObject({
    edit_id: z.string().check(z.minLength(1), z.describe('The edit_id ast_edit returned')),
    action: z
      .enum(['accept', 'discard'])
      .check(z.describe('"accept" writes all its files; "discard" drops it')),
  }),
);
export type ResolveInput = z.infer<typeof inputSchema>;
export type ResolveOutput = { editId: string; action: 'accept' | 'discard'; files: string[] };

function stagedEdit(id: string, context: ToolUseContext): StagedEdit {
  const edit = context.services.stagedEdits.get(id);
  if (edit) return edit;
  const open = context.services.stagedEdits.ids();
  throw new ToolError(
    `No staged edit ${id} in this session${open.length > 0 ? ` (staged: ${open.join(', ')})` : ''}; it may have been resolved already. Run ast_edit again.`,
  );
}

/** Every file as it was staged, or the reason the whole change is refused. */
function judgeStagedFiles(edit: StagedEdit, context: ToolUseContext) {
  return judgeAsEdits(
    edit.files.map((f) => f.path),
    edit.id,
    context,
  );
}

async function assertUnchanged(edit: StagedEdit, context: ToolUseContext): Promise<void> {
  for (const file of edit.files) {
    const label = pathForModel(file.path, context.cwd);
    const now = await readFile(file.path).catch((error: unknown) => {
      throw new ToolError(
        `${describeFsError(error, file.path)} ${edit.id} was not applied; nothing was written.`,
      );
    });
    if (!now.equals(file.before))
      throw new ToolError(
        `${label} changed after ${edit.id} was staged, so ${edit.files.length === 1 ? 'it was not written' : `none of its ${edit.files.length} files was written`}. Run ast_edit again on the current code.`,
      );
  }
}

export const resolveTool = buildTool<ResolveInput, ResolveOutput>({
  name: 'resolve',
  tier: 'write',
  access: 'none',
  inputSchema,
  prompt,
  description: (input) => `resolve ${input.edit_id} (${input.action})`,
  isConcurrencySafe: () => false,
  isReadOnly: (input) => input.action === 'discard',
  interruptBehavior: () => 'block',
  toAutoClassifierInput: (input) => `${input.action} ${input.edit_id}`,
  mapResultToContent: describeResolution,
  async checkPermissions(input, context) {
    if (input.action === 'discard') return { behavior: 'allow' };
    const edit = context.services.stagedEdits.get(input.edit_id);
    // An unknown id writes nothing; the call says why.
    if (!edit) return { behavior: 'allow' };
    return judgeStagedFiles(edit, context);
  },
  async call(input, context) {
    const edit = stagedEdit(input.edit_id, context);
    if (input.action === 'discard') {
      context.services.stagedEdits.take(edit.id);
      return { data: { editId: edit.id, action: 'discard', files: [] } };
    }
    // Decided again on what will be written: a deny rule holds whatever was approved before.
    const verdict = judgeStagedFiles(edit, context);
    if (verdict.behavior === 'deny') throw new ToolError(verdict.message);
    await assertUnchanged(edit, context);
    await writeAllOrNone(
      edit.files.map((f) => ({ path: f.path, before: f.before, after: Buffer.from(f.after, 'utf8') })),
    );
    for (const file of edit.files) await recordFileState(context, file.path, Buffer.from(file.after, 'utf8'));
    context.services.stagedEdits.take(edit.id);
    const data: ResolveOutput = {
      editId: edit.id,
      action: 'accept',
      files: edit.files.map((f) => pathForModel(f.path, context.cwd)),
    };
    // Like every file-writing tool: the new errors the rewrite caused come with its result.
    const lsp = context.services.lsp;
    const report = lsp.settings.diagnosticsOnWrite
      ? await checkWrites(
          lsp,
          context,
          edit.files.map((f) => ({ path: f.path, oldText: f.before.toString('utf8') })),
        )
      : undefined;
    return report ? { data, content: `${describeResolution(data)}\n\n${report}` } : { data };
  },
});

function describeResolution(output: ResolveOutput): string {
  if (output.action === 'discard') return `Discarded ${output.editId}; nothing was written.`;
  const count = output.files.length;
  return `Accepted ${output.editId}: wrote ${count} file${count === 1 ? '' : 's'}: ${output.files.join(', ')}`;
}
