/** A file made ready for a question: its server found (or why not), its text synced and indexed. */
import type { LspClient } from '../../../services/lsp/client';
import { documentDiagnostics, type SyncedDocument } from '../../../services/lsp/document-diagnostics';
import { INDEXING_WAIT_MS, LspUnavailableError } from '../../../services/lsp/supervisor';
import type { ToolUseContext } from '../../context';
import { ToolError } from '../../tool';
import { describeFsError } from '../shared/fs-errors';
import { MAX_WHOLE_FILE_BYTES, readWholeRegularFile } from '../shared/regular-file';

export type ReadyDocument = { client: LspClient; path: string; text: string; synced: SyncedDocument };

/** The file's server, started if need be; its refusal or absence becomes a ToolError that says why. */
export async function serverFor(context: ToolUseContext, path: string): Promise<LspClient> {
  try {
    return await context.services.lsp.clientFor(path, context.abortSignal);
  } catch (error) {
    if (error instanceof LspUnavailableError) {
      if (error.stoppedAfterCrashes) context.notify({ level: 'warning', message: error.message });
      throw new ToolError(`${error.message}.`);
    }
    throw error;
  }
}

export async function readyDocument(context: ToolUseContext, path: string): Promise<ReadyDocument> {
  const client = await serverFor(context, path);
  let text: string;
  try {
    const { bytes } = await readWholeRegularFile(path, {
      purpose: 'read',
      signal: context.abortSignal,
      tooLarge: (size) =>
        `${path} is ${size}; language servers are asked about files up to ${MAX_WHOLE_FILE_BYTES / 1024 / 1024} MB.`,
    });
    text = bytes.toString('utf8');
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError(describeFsError(error, path));
  }
  const synced = await context.services.lsp.syncFromDisk(client, path, text);
  await client.idle(INDEXING_WAIT_MS, context.abortSignal);
  // A file just opened is answered only once the server has analyzed it (pyright answers a
  // rename or a definition with null before that): its first diagnostics say it has.
  if (synced.version === 1 && synced.changed)
    await documentDiagnostics(client, path, synced, INDEXING_WAIT_MS, context.abortSignal);
  return { client, path, text, synced };
}
