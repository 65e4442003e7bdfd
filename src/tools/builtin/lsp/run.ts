/** The `lsp` actions, loaded on the tool's first call. */
import { SERVER_SPECS } from '../../../services/lsp/servers';
import type { ToolUseContext } from '../../context';
import { ToolError } from '../../tool';
import { codeActions, diagnosticsOf, documentSymbols, hover, navigate, workspaceSymbols } from './actions';
import type { LspInput } from './index';
import { projectDiagnostics, sourceFiles } from './project-check';
import { lspStatus } from './status';

/** Answers one call; `path` is its file made absolute (undefined for "*" and no file). */
export async function runLsp(
  input: LspInput,
  path: string | undefined,
  context: ToolUseContext,
): Promise<string> {
  const at = {
    line: input.line ?? 0,
    symbol: input.symbol ?? '',
    ...(input.occurrence ? { occurrence: input.occurrence } : {}),
  };
  switch (input.action) {
    case 'status':
      return await lspStatus(context);
    case 'reload': {
      const reloaded = await context.services.lsp.reload(path);
      return reloaded.length > 0
        ? `Restarted (each starts again on its next use):\n${reloaded.join('\n')}`
        : 'No server was running for that; one starts on the next call that needs it.';
    }
    case 'diagnostics':
      return path ? await diagnosticsOf(context, path) : await projectDiagnostics(context);
    case 'symbols':
      if (input.query !== undefined) {
        const anchor = path ?? (await anchorFile(context));
        return await workspaceSymbols(context, anchor, input.query);
      }
      return await documentSymbols(context, path as string);
    case 'hover':
      return await hover(context, path as string, at);
    case 'code_actions':
      return await codeActions(context, path as string, at);
    default:
      return await navigate(context, input.action, path as string, at);
  }
}

/** A workspace search needs a server: the one for the first source file under the working directory. */
async function anchorFile(context: ToolUseContext): Promise<string> {
  for (const spec of SERVER_SPECS) {
    const [first] = await sourceFiles(spec, context.cwd);
    if (!first) continue;
    const resolution = await context.services.lsp.resolve(first);
    if (resolution?.kind === 'ready') return first;
  }
  throw new ToolError(
    `No language server can search ${context.cwd}: give file (a source file of the project) with query, or see action status.`,
  );
}
