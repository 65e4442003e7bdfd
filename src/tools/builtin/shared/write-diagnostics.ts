/**
 * Diagnostics on write (seed 002): a file-writing tool wrapped here syncs each file it wrote to
 * its language server, saves it, and appends to its result only the diagnostics that are NEW —
 * in the file and in up to ten files that import it. The session's ledger decides what is new.
 * The wait is bounded by `lsp.diagnosticsWaitMs`; a check that outlives it keeps running and its
 * findings come with the next write, so nothing is recorded as told that was not. A file no
 * server handles costs one extension lookup.
 */
import { readFile } from 'node:fs/promises';
import type { ToolUseContext } from '../../context';
import type { Tool, ToolInput, ToolResult } from '../../tool';
import type { FileCheck } from './write-check';

/** The files a call will write, absolute (known before it runs, so their old text can be kept). */
export type WrittenFiles<In> = (input: In, context: ToolUseContext) => string[];

/** Wraps a file-writing tool so its results carry the new diagnostics its writes caused. */
export function withWriteDiagnostics<In extends ToolInput, Out>(
  tool: Tool<In, Out>,
  writtenFiles: WrittenFiles<In>,
): Tool<In, Out> {
  // A copy of the tool's own properties (its schema getter stays lazy), with `call` wrapped.
  const wrapped = Object.defineProperties({}, Object.getOwnPropertyDescriptors(tool)) as Tool<In, Out>;
  wrapped.call = async (input, context, onProgress) => {
    const lsp = context.services.lsp;
    if (!lsp.settings.diagnosticsOnWrite) return tool.call(input, context, onProgress);
    const written = writtenFiles(input, context);
    const candidates = written.filter((p) => lsp.handles(p));
    if (candidates.length === 0) {
      const result = await tool.call(input, context, onProgress);
      // A new tsconfig.json or pyproject.toml may bring a server to a folder that had none.
      for (const path of written) lsp.noteWritten(path);
      return result;
    }
    const checks: FileCheck[] = [];
    for (const path of candidates) {
      const resolution = await lsp.resolveForWrite(path);
      // A server that stopped after crashing was reported once; writes stay quiet until `reload`.
      if (resolution?.kind !== 'ready' || lsp.isStopped(resolution)) continue;
      checks.push({ path, oldText: await readFile(path, 'utf8').catch(() => undefined) });
    }
    const result = await tool.call(input, context, onProgress);
    if (checks.length === 0 || result.isError) return result;
    // The checking (and the modules it needs) loads with the first write a server applies to.
    const { checkWrites } = await import('./write-check');
    const report = await checkWrites(lsp, context, checks);
    return report ? appendText(tool, result, report) : result;
  };
  return wrapped;
}

function appendText<Out>(tool: Tool<ToolInput, Out>, result: ToolResult<Out>, text: string): ToolResult<Out> {
  const content = result.content ?? tool.mapResultToContent(result.data);
  if (typeof content === 'string') return { ...result, content: `${content}\n\n${text}` };
  return { ...result, content: [...content, { type: 'text', text }] };
}
