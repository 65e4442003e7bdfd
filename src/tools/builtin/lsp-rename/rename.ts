/** The rename itself: plan it with the server, judge every file, write all or none. */
import { readFile } from 'node:fs/promises';
import type { ToolPermissionResult } from '../../../permissions/types';
import type { ToolUseContext } from '../../context';
import { ToolError, type ToolResult } from '../../tool';
import { readyDocument } from '../lsp/document';
import { fileRules } from '../lsp/file-rules';
import { pathOfUri, SourceView } from '../lsp/format';
import { locateSymbol } from '../lsp/position';
import { recordFileState } from '../shared/freshness';
import { describeFsError } from '../shared/fs-errors';
import { hashContent } from '../shared/hash';
import { resolveToolPath } from '../shared/paths';
import { writeAllOrNone } from '../shared/write-all';
import { checkWrites } from '../shared/write-check';
import { describeRename, type LspRenameInput, type LspRenameOutput } from './index';
import { applyTextEdits, collectEdits } from './workspace-edit';

type PlannedFile = { path: string; before: Buffer; after: string; edits: number };

type ServerError = { code?: number; message?: string };
const isServerError = (error: unknown): error is ServerError =>
  typeof error === 'object' && error !== null && 'code' in error && 'message' in error;

/** Asks the server for the rename on the current disk content and computes each file's new text. */
async function planRename(input: LspRenameInput, context: ToolUseContext): Promise<PlannedFile[]> {
  const path = resolveToolPath(input.file, context.cwd);
  const doc = await readyDocument(context, path);
  const { client } = doc;
  // What the server holds of other files must be what is on disk: the edit is made against it.
  for (const uri of client.openUris()) {
    const open = pathOfUri(uri);
    if (!open || open === path) continue;
    const text = await readFile(open, 'utf8').catch(() => undefined);
    if (text === undefined) await client.close(uri);
    else await context.services.lsp.syncFromDisk(client, open, text);
  }
  const view = new SourceView(context.projectRoot, fileRules(context));
  const label = view.label(path);
  const range = locateSymbol(doc.text, input, label);
  const where = `${input.symbol} at ${label}:${input.line}`;
  const server = client.server.spec.binary;
  const params = { textDocument: { uri: doc.synced.uri }, position: range.start };
  try {
    const provider = client.capabilities.renameProvider;
    if (typeof provider === 'object' && provider.prepareProvider) {
      const prepared = await client.request<unknown>(
        'textDocument/prepareRename',
        params,
        context.abortSignal,
      );
      if (prepared === null)
        throw new ToolError(`${server} cannot rename ${where}: it is not a symbol it can rename.`);
    }
    const edit = await client.request<Parameters<typeof collectEdits>[0] | null>(
      'textDocument/rename',
      { ...params, newName: input.new_name },
      context.abortSignal,
    );
    if (!edit) throw new ToolError(`${server} offers no rename for ${where}.`);
    const files = collectEdits(edit);
    if (files.length === 0) throw new ToolError(`${server} found nothing to rename for ${where}.`);
    return await Promise.all(
      files.map(async ({ path: file, edits }) => {
        const before = await readFile(file).catch((error: unknown) => {
          throw new ToolError(`${describeFsError(error, file)} Nothing was changed.`);
        });
        const text = before.toString('utf8');
        if (!Buffer.from(text, 'utf8').equals(before))
          throw new ToolError(
            `${view.label(file)} is not UTF-8 text, as language servers read it; nothing was changed.`,
          );
        return {
          path: file,
          before,
          after: applyTextEdits(text, edits, view.label(file)),
          edits: edits.length,
        };
      }),
    );
  } catch (error) {
    if (error instanceof ToolError) throw error;
    if (isServerError(error))
      throw new ToolError(`${server} refused to rename ${where}: ${error.message}. Nothing was changed.`);
    throw error;
  }
}

/** Each file as an Edit of it would be judged: a deny refuses all, a file that would ask asks. */
function judgeFiles(files: readonly PlannedFile[], context: ToolUseContext): ToolPermissionResult {
  const rules = fileRules(context);
  const view = new SourceView(context.projectRoot, rules);
  const asks: string[] = [];
  let allAllowed = true;
  let allInside = true;
  for (const file of files) {
    const verdict = rules.judge('Edit', file.path);
    if (verdict.denied)
      return {
        behavior: 'deny',
        message: `The rename would change ${view.label(file.path)}: ${verdict.denied.message}`,
      };
    const reasons = [
      ...(verdict.askRule ? [`an ask rule covers it`] : []),
      ...verdict.protectedWrites.map((w) => w.reason),
      ...verdict.reasons,
    ];
    if (reasons.length > 0) asks.push(`${view.label(file.path)} (${reasons.join('; ')})`);
    allAllowed &&= verdict.allowed;
    allInside &&= verdict.editsInside;
  }
  if (asks.length > 0)
    return { behavior: 'ask', message: `The rename changes files that need approval: ${asks.join(', ')}` };
  const { mode } = context.getPermissionContext();
  if (allAllowed || (allInside && (mode === 'acceptEdits' || mode === 'bypassPermissions')))
    return { behavior: 'allow' };
  return { behavior: 'passthrough' };
}

/** The permission the rename needs: each file judged as an Edit of it would be. */
export async function renamePermission(
  input: LspRenameInput,
  context: ToolUseContext,
): Promise<ToolPermissionResult> {
  let files: PlannedFile[];
  try {
    files = await planRename(input, context);
  } catch (error) {
    // The call reports why it cannot rename; only a plan shows which files need permission.
    if (error instanceof ToolError) return { behavior: 'passthrough' };
    throw error;
  }
  return judgeFiles(files, context);
}

export async function renameSymbol(
  input: LspRenameInput,
  context: ToolUseContext,
): Promise<ToolResult<LspRenameOutput>> {
  const files = await planRename(input, context);
  // Decided again on what will really be written: a deny rule holds whatever was asked before.
  const verdict = judgeFiles(files, context);
  if (verdict.behavior === 'deny') throw new ToolError(verdict.message);
  for (const file of files) {
    const entry = context.readFileState.get(file.path);
    if (entry && entry.hash !== hashContent(file.before))
      throw new ToolError(
        `${file.path} was modified since you last read it. Read it again, then retry the rename; nothing was changed.`,
      );
  }
  await writeAllOrNone(
    files.map((f) => ({ path: f.path, before: f.before, after: Buffer.from(f.after, 'utf8') })),
  );
  for (const file of files)
    if (context.readFileState.get(file.path))
      await recordFileState(context, file.path, Buffer.from(file.after, 'utf8'));
  const data: LspRenameOutput = {
    symbol: input.symbol,
    newName: input.new_name,
    files: files.map((f) => ({ path: f.path, edits: f.edits })),
  };
  const lsp = context.services.lsp;
  const report = lsp.settings.diagnosticsOnWrite
    ? await checkWrites(
        lsp,
        context,
        files.map((f) => ({ path: f.path, oldText: f.before.toString('utf8') })),
      )
    : undefined;
  if (!report) return { data };
  return { data, content: `${describeRename(data)}\n\n${report}` };
}
