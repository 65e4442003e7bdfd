/**
 * Diagnostics on write (seed 002): a file-writing tool wrapped here syncs each file it wrote to
 * its language server, saves it, and appends to its result only the diagnostics that are NEW —
 * in the file and in up to ten files that import it. The session's ledger decides what is new.
 * The wait is bounded by `lsp.diagnosticsWaitMs`; a check that outlives it keeps running and its
 * findings come with the next write, so nothing is recorded as told that was not. A file no
 * server handles costs one extension lookup.
 */
import { readFile } from 'node:fs/promises';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { LspClient } from '../../../services/lsp/client';
import { documentDiagnostics } from '../../../services/lsp/document-diagnostics';
import type { LateFinding, LspSupervisor } from '../../../services/lsp/supervisor';
import type { ToolUseContext } from '../../context';
import type { Tool, ToolInput, ToolResult } from '../../tool';
import { findDependants } from '../lsp/dependants';
import { fileRules } from '../lsp/file-rules';
import { formatDiagnostic, SourceView } from '../lsp/format';

/** The files a call will write, absolute (known before it runs, so their old text can be kept). */
export type WrittenFiles<In> = (input: In, context: ToolUseContext) => string[];

/** How long a check may run on after its write returned, before it gives up. */
const BACKGROUND_LIMIT_MS = 120_000;

/** Errors and warnings are reported; information and hints only enter the ledger. */
const reported = (d: Diagnostic) => (d.severity ?? 1) <= 2;

/** A file a tool is about to write, with its text before (undefined for a new file). */
export type FileCheck = { path: string; oldText: string | undefined };
type Finding = LateFinding;

/** Wraps a file-writing tool so its results carry the new diagnostics its writes caused. */
export function withWriteDiagnostics<In extends ToolInput, Out>(
  tool: Tool<In, Out>,
  writtenFiles: WrittenFiles<In>,
): Tool<In, Out> {
  // A copy of the tool's own properties (its schema getter stays lazy), with `call` wrapped.
  const wrapped = Object.defineProperties({}, Object.getOwnPropertyDescriptors(tool)) as Tool<In, Out>;
  wrapped.call = async (input, context, onProgress) => {
    const lsp = context.services.lsp;
    const candidates = lsp.settings.diagnosticsOnWrite
      ? writtenFiles(input, context).filter((p) => lsp.handles(p))
      : [];
    if (candidates.length === 0) return tool.call(input, context, onProgress);
    const checks: FileCheck[] = [];
    for (const path of candidates) {
      const resolution = await lsp.resolveForWrite(path);
      if (resolution?.kind !== 'ready') continue;
      checks.push({ path, oldText: await readFile(path, 'utf8').catch(() => undefined) });
    }
    const result = await tool.call(input, context, onProgress);
    for (const path of candidates) lsp.noteWritten(path);
    if (checks.length === 0 || result.isError) return result;
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

/**
 * The report of new diagnostics after files were written (undefined when there is nothing to
 * say), for a tool that knows its files only as it runs (lsp_rename); others use the wrapper.
 */
export async function checkWrites(
  lsp: LspSupervisor,
  context: ToolUseContext,
  checks: FileCheck[],
): Promise<string | undefined> {
  const waitMs = lsp.settings.diagnosticsWaitMs;
  const earlier = lsp.late.splice(0);
  // The check's own bound is long: past the write's wait it runs on for the next write's report.
  const signal = AbortSignal.any([AbortSignal.timeout(BACKGROUND_LIMIT_MS), context.abortSignal]);
  const work = lsp.serialize(async () => {
    const found: Finding[] = [];
    await Promise.all(checks.map((check) => checkFile(lsp, context, check, signal, found)));
    return found;
  });
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), waitMs);
  });
  let note: string | undefined;
  let found: Finding[] = [];
  try {
    const outcome = await Promise.race([work, waited]);
    if (outcome === 'late') {
      note = `(The language server did not answer within ${waitMs} ms, setting lsp.diagnosticsWaitMs: new diagnostics of this write come with the next one.)`;
      work.then(
        (late) => lsp.late.push(...late),
        () => {},
      );
    } else found = outcome;
  } catch (error) {
    note = `(No diagnostics: ${(error as Error).message})`;
  } finally {
    clearTimeout(timer);
  }
  return formatReport(context, [...earlier, ...lsp.late.splice(0)], found, note);
}

function formatReport(
  context: ToolUseContext,
  earlier: readonly Finding[],
  found: readonly Finding[],
  note: string | undefined,
): string | undefined {
  const view = new SourceView(context.projectRoot, fileRules(context));
  const lines = (list: readonly Finding[]) =>
    list.flatMap((entry) => entry.diagnostics.map((d) => formatDiagnostic(d, view.label(entry.path))));
  const parts: string[] = [];
  const before = lines(earlier);
  if (before.length > 0)
    parts.push(`New diagnostics from an earlier write (reported late):\n${before.join('\n')}`);
  const own = lines(found.filter((f) => !f.dependant));
  if (own.length > 0) parts.push(`New diagnostics after this write:\n${own.join('\n')}`);
  const others = lines(found.filter((f) => f.dependant));
  if (others.length > 0) parts.push(`New diagnostics in files that import it:\n${others.join('\n')}`);
  if (note) parts.push(note);
  return parts.length > 0 ? parts.join('\n') : undefined;
}

async function checkFile(
  lsp: LspSupervisor,
  context: ToolUseContext,
  check: FileCheck,
  signal: AbortSignal,
  found: Finding[],
): Promise<void> {
  const { path, oldText } = check;
  const client = await lsp.clientFor(path, signal);
  const waitMs = BACKGROUND_LIMIT_MS;
  // The state before the write, as the ledger's baseline: what was wrong already is not new.
  if (oldText !== undefined) {
    const before = await lsp.syncFromDisk(client, path, oldText);
    if (!lsp.ledger.knows(path)) {
      const diagnostics = await documentDiagnostics(client, path, before, waitMs, signal);
      if (diagnostics) lsp.ledger.baseline(path, diagnostics, oldText);
    }
  }
  const dependants = await findDependants(
    context,
    client.server.spec,
    client.server.root,
    path,
    signal,
  ).catch(() => []);
  const watched = await baselineDependants(lsp, client, dependants, signal);
  const text = await readFile(path, 'utf8');
  const after = await lsp.syncFromDisk(client, path, text);
  const diagnostics = await documentDiagnostics(client, path, after, waitMs, signal);
  if (!diagnostics) return;
  const fresh = lsp.ledger.update(path, diagnostics, text).filter(reported);
  if (fresh.length > 0) found.push({ path, diagnostics: fresh, dependant: false });
  await Promise.all(
    watched.map(async ({ path: other, version, uri, text: theirText }) => {
      // Their text did not change: a push for them counts once it comes after the edit's sync.
      const since = { uri, version, changed: true, pushMark: after.pushMark };
      const theirs = await documentDiagnostics(client, other, since, waitMs, signal);
      if (!theirs) return;
      const news = lsp.ledger.update(other, theirs, theirText).filter(reported);
      if (news.length > 0) found.push({ path: other, diagnostics: news, dependant: true });
    }),
  );
}

/** Opens the importers and records what they report before the edit reaches the server. */
async function baselineDependants(
  lsp: LspSupervisor,
  client: LspClient,
  dependants: readonly string[],
  signal: AbortSignal,
): Promise<Array<{ path: string; uri: string; version: number; text: string }>> {
  const watched = await Promise.all(
    dependants.map(async (path) => {
      const text = await readFile(path, 'utf8').catch(() => undefined);
      if (text === undefined) return undefined;
      const synced = await lsp.syncFromDisk(client, path, text);
      if (!lsp.ledger.knows(path)) {
        const diagnostics = await documentDiagnostics(client, path, synced, BACKGROUND_LIMIT_MS, signal);
        if (!diagnostics) return undefined;
        lsp.ledger.baseline(path, diagnostics, text);
      }
      return { path, uri: synced.uri, version: synced.version, text };
    }),
  );
  return watched.filter((w) => w !== undefined);
}
