/**
 * The check after a write (write-diagnostics.ts): the files' text before and after goes to their
 * server, the ledger keeps what was already told, and the report lists what is new.
 */
import { readFile } from 'node:fs/promises';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { LspClient } from '../../../services/lsp/client';
import { documentDiagnostics } from '../../../services/lsp/document-diagnostics';
import { type LateFinding, type LspSupervisor, LspUnavailableError } from '../../../services/lsp/supervisor';
import type { ToolUseContext } from '../../context';
import { findDependants } from '../lsp/dependants';
import { fileRules } from '../lsp/file-rules';
import { formatDiagnostic, SourceView } from '../lsp/format';

/** How long a check may run on after its write returned, before it gives up. */
const BACKGROUND_LIMIT_MS = 120_000;

/** Errors and warnings are reported; information and hints only enter the ledger. */
const reported = (d: Diagnostic) => (d.severity ?? 1) <= 2;

/** A file a tool is about to write, with its text before (undefined for a new file). */
export type FileCheck = { path: string; oldText: string | undefined };
type Finding = LateFinding;

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
    await checkFiles(lsp, context, checks, signal, found);
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
    if (error instanceof LspUnavailableError && error.stoppedAfterCrashes)
      context.notify({ level: 'warning', message: error.message });
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

type Prepared = {
  path: string;
  client: LspClient;
  watched: Array<{ path: string; uri: string; version: number; text: string }>;
};

/**
 * In three phases, so that no file is checked against another's half-synced state (a rename
 * changes several at once): every file's old text and its importers are baselined, then every
 * new text is synced, then the diagnostics are collected.
 */
async function checkFiles(
  lsp: LspSupervisor,
  context: ToolUseContext,
  checks: readonly FileCheck[],
  signal: AbortSignal,
  found: Finding[],
): Promise<void> {
  const waitMs = BACKGROUND_LIMIT_MS;
  const written = new Set(checks.map((c) => c.path));
  const prepared: Prepared[] = [];
  for (const { path, oldText } of checks) {
    const client = await lsp.clientFor(path, signal);
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
    const others = dependants.filter((d) => !written.has(d));
    prepared.push({ path, client, watched: await baselineDependants(lsp, client, others, signal) });
  }
  const synced = [];
  for (const { path, client, watched } of prepared) {
    const text = await readFile(path, 'utf8');
    synced.push({ path, client, watched, text, after: await lsp.syncFromDisk(client, path, text) });
  }
  const seen = new Set<string>();
  for (const { path, client, watched, text, after } of synced) {
    const diagnostics = await documentDiagnostics(client, path, after, waitMs, signal);
    if (diagnostics) {
      const fresh = lsp.ledger.update(path, diagnostics, text).filter(reported);
      if (fresh.length > 0) found.push({ path, diagnostics: fresh, dependant: false });
    }
    for (const { path: other, version, uri, text: theirText } of watched) {
      if (seen.has(other)) continue;
      seen.add(other);
      // Their text did not change: a push for them counts once it comes after the edit's sync.
      const since = { uri, version, changed: true, pushMark: after.pushMark };
      const theirs = await documentDiagnostics(client, other, since, waitMs, signal);
      if (!theirs) continue;
      const news = lsp.ledger.update(other, theirs, theirText).filter(reported);
      if (news.length > 0) found.push({ path: other, diagnostics: news, dependant: true });
    }
  }
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
