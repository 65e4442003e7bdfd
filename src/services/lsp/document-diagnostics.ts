/**
 * The diagnostics of one document version: pulled (`textDocument/diagnostic`) where the server
 * offers it, asked of tsserver for typescript-language-server (which publishes nothing for a file
 * that stays clean), else the first push for the file after the sync. Never a stale answer from
 * before the sync: a push must come after it (and name its version when the server tells).
 */
import type { Diagnostic, DocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import type { LspClient } from './client';

/** A tsserver diagnostic (protocol.Diagnostic): 1-based line and offset. */
type TsDiagnostic = {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code?: number;
  category: string;
  source?: string;
};

const TS_SEVERITY: Record<string, Diagnostic['severity']> = {
  error: 1,
  warning: 2,
  suggestion: 4,
  message: 3,
};

function fromTsserver(item: TsDiagnostic): Diagnostic {
  const diagnostic: Diagnostic = {
    range: {
      start: { line: item.start.line - 1, character: item.start.offset - 1 },
      end: { line: item.end.line - 1, character: item.end.offset - 1 },
    },
    message: item.text,
    severity: TS_SEVERITY[item.category] ?? 1,
    source: item.source ?? 'typescript',
  };
  if (item.code !== undefined) diagnostic.code = item.code;
  return diagnostic;
}

async function askTsserver(client: LspClient, path: string, signal?: AbortSignal): Promise<Diagnostic[]> {
  const kinds = ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync'];
  const answers = await Promise.all(
    kinds.map((kind) =>
      client.request<{ body?: TsDiagnostic[] } | TsDiagnostic[] | null>(
        'workspace/executeCommand',
        { command: 'typescript.tsserverRequest', arguments: [kind, { file: path }] },
        signal,
      ),
    ),
  );
  return answers.flatMap((answer) => {
    const items = Array.isArray(answer) ? answer : (answer?.body ?? []);
    return items.map(fromTsserver);
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export type SyncedDocument = { uri: string; version: number; changed: boolean; pushMark: number };

/**
 * The diagnostics for the version just synced, or undefined when the server gave none within
 * `waitMs` (the caller says so rather than guess).
 */
export async function documentDiagnostics(
  client: LspClient,
  path: string,
  synced: SyncedDocument,
  waitMs: number,
  signal?: AbortSignal,
): Promise<Diagnostic[] | undefined> {
  const { spec } = client.server;
  if (spec.diagnostics === 'tsserver') return withTimeout(askTsserver(client, path, signal), waitMs);
  if (client.capabilities.diagnosticProvider) {
    const report = await withTimeout(
      client.request<DocumentDiagnosticReport>(
        'textDocument/diagnostic',
        { textDocument: { uri: synced.uri } },
        signal,
      ),
      waitMs,
    );
    if (!report) return undefined;
    return report.kind === 'full' ? report.items : client.lastPushed(synced.uri);
  }
  if (!synced.changed) {
    const last = client.lastPushed(synced.uri);
    if (last) return last;
  }
  return client.pushedAfter(synced.uri, synced.pushMark, synced.version, waitMs, signal);
}
