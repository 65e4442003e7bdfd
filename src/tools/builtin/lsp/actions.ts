/** The `lsp` actions that ask about one place or one file: each returns the text the model reads. */
import type {
  CodeAction,
  Command,
  Diagnostic,
  DocumentSymbol,
  Hover,
  Location,
  LocationLink,
  MarkedString,
  MarkupContent,
  SymbolInformation,
  WorkspaceEdit,
  WorkspaceSymbol,
} from 'vscode-languageserver-protocol';
import { documentDiagnostics } from '../../../services/lsp/document-diagnostics';
import type { ToolUseContext } from '../../context';
import { ToolError } from '../../tool';
import { type ReadyDocument, readyDocument } from './document';
import { type FileRules, fileRules } from './file-rules';
import { formatDiagnostic, formatPlaces, pathOfUri, placesOf, SourceView } from './format';
import { locateSymbol, type SymbolAt } from './position';

export const MAX_REFERENCES = 50;
export const MAX_WORKSPACE_SYMBOLS = 100;
export const MAX_DOCUMENT_SYMBOLS = 200;
const MAX_CODE_ACTIONS = 20;
/** A question waits longer for diagnostics than a write does: the model asked for them. */
const ASKED_DIAGNOSTICS_WAIT_MS = 30_000;

export type NavigationAction = 'definition' | 'type_definition' | 'implementation' | 'references';

const NAVIGATION_METHODS: Record<NavigationAction, string> = {
  definition: 'textDocument/definition',
  type_definition: 'textDocument/typeDefinition',
  implementation: 'textDocument/implementation',
  references: 'textDocument/references',
};

const NOTHING_FOUND: Record<NavigationAction, string> = {
  definition: 'no definition',
  type_definition: 'no type definition',
  implementation: 'no implementation',
  references: 'no references',
};

type Asked = { doc: ReadyDocument; rules: FileRules; view: SourceView; label: string };

async function ask(context: ToolUseContext, path: string): Promise<Asked> {
  const doc = await readyDocument(context, path);
  const rules = fileRules(context);
  const view = new SourceView(context.projectRoot, rules, new Map([[path, doc.text]]));
  return { doc, rules, view, label: view.label(path) };
}

export async function navigate(
  context: ToolUseContext,
  action: NavigationAction,
  path: string,
  at: SymbolAt,
): Promise<string> {
  const { doc, view, label } = await ask(context, path);
  const range = locateSymbol(doc.text, at, label);
  const params: Record<string, unknown> = { textDocument: { uri: doc.synced.uri }, position: range.start };
  if (action === 'references') params.context = { includeDeclaration: true };
  const answer = await doc.client.request<Location | Location[] | LocationLink[] | null>(
    NAVIGATION_METHODS[action],
    params,
    context.abortSignal,
  );
  const places = placesOf(answer);
  const what = `${at.symbol} at ${label}:${at.line}`;
  if (places.length === 0) return `${NOTHING_FOUND[action]} found for ${what}.`;
  // References are capped as seed 002 says; a definition with that many places is capped alike.
  return `${action.replace('_', ' ')} of ${what}:\n${await formatPlaces(places, view, MAX_REFERENCES)}`;
}

function hoverText(contents: Hover['contents']): string {
  const part = (item: MarkupContent | MarkedString): string =>
    typeof item === 'string'
      ? item
      : 'kind' in item
        ? item.value
        : `\`\`\`${item.language}\n${item.value}\n\`\`\``;
  return (Array.isArray(contents) ? contents.map(part) : [part(contents)])
    .map((text) => text.trim())
    .filter(Boolean)
    .join('\n\n');
}

export async function hover(context: ToolUseContext, path: string, at: SymbolAt): Promise<string> {
  const { doc, rules, view, label } = await ask(context, path);
  const range = locateSymbol(doc.text, at, label);
  const params = { textDocument: { uri: doc.synced.uri }, position: range.start };
  const [answer, declared] = await Promise.all([
    doc.client.request<Hover | null>('textDocument/hover', params, context.abortSignal),
    doc.client.request<Location | Location[] | LocationLink[] | null>(
      'textDocument/definition',
      params,
      context.abortSignal,
    ),
  ]);
  // A hover quotes the declaration and its doc comment: not from a file the rules keep unread.
  const hidden = placesOf(declared).filter((place) => rules.readDenied(place.path));
  if (hidden.length > 0)
    return `hover for ${at.symbol} at ${label}:${at.line} not shown: it is declared in ${view.label(hidden[0]?.path ?? '')}, which a Read deny rule covers.`;
  const text = answer ? hoverText(answer.contents) : '';
  return text || `no hover information for ${at.symbol} at ${label}:${at.line}.`;
}

export async function diagnosticsOf(context: ToolUseContext, path: string): Promise<string> {
  const { doc, label } = await ask(context, path);
  const found = await documentDiagnostics(
    doc.client,
    path,
    doc.synced,
    ASKED_DIAGNOSTICS_WAIT_MS,
    context.abortSignal,
  );
  if (!found)
    throw new ToolError(
      `${doc.client.server.spec.binary} gave no diagnostics for ${label} within ${ASKED_DIAGNOSTICS_WAIT_MS / 1000} s.`,
    );
  context.services.lsp.ledger.baseline(path, found, doc.text);
  if (found.length === 0) return `${label}: no diagnostics.`;
  return found.map((d) => formatDiagnostic(d, label)).join('\n');
}

/** LSP's SymbolKind numbers, as words. */
const KIND_NAMES: readonly string[] = [
  '',
  'file',
  'module',
  'namespace',
  'package',
  'class',
  'method',
  'property',
  'field',
  'constructor',
  'enum',
  'interface',
  'function',
  'variable',
  'constant',
  'string',
  'number',
  'boolean',
  'array',
  'object',
  'key',
  'null',
  'enum member',
  'struct',
  'event',
  'operator',
  'type parameter',
];
const kindName = (kind: number) => KIND_NAMES[kind] ?? 'symbol';

export async function documentSymbols(context: ToolUseContext, path: string): Promise<string> {
  const { doc, label } = await ask(context, path);
  const answer = await doc.client.request<DocumentSymbol[] | SymbolInformation[] | null>(
    'textDocument/documentSymbol',
    { textDocument: { uri: doc.synced.uri } },
    context.abortSignal,
  );
  const lines: string[] = [];
  let total = 0;
  const walk = (symbols: readonly DocumentSymbol[], depth: number) => {
    for (const symbol of symbols) {
      total += 1;
      if (lines.length < MAX_DOCUMENT_SYMBOLS)
        lines.push(
          `${'  '.repeat(depth)}${kindName(symbol.kind)} ${symbol.name} — line ${symbol.selectionRange.start.line + 1}`,
        );
      walk(symbol.children ?? [], depth + 1);
    }
  };
  const list = answer ?? [];
  if (list.length > 0 && 'location' in (list[0] as object)) {
    for (const info of list as SymbolInformation[]) {
      total += 1;
      const container = info.containerName ? ` (in ${info.containerName})` : '';
      if (lines.length < MAX_DOCUMENT_SYMBOLS)
        lines.push(
          `${kindName(info.kind)} ${info.name}${container} — line ${info.location.range.start.line + 1}`,
        );
    }
  } else walk(list as DocumentSymbol[], 0);
  if (total === 0) return `${label}: no symbols.`;
  if (total > lines.length) lines.push(`(${total - lines.length} more not shown)`);
  return `${label}:\n${lines.join('\n')}`;
}

export async function workspaceSymbols(
  context: ToolUseContext,
  anchor: string,
  query: string,
): Promise<string> {
  const { doc, view } = await ask(context, anchor);
  const answer = await doc.client.request<SymbolInformation[] | WorkspaceSymbol[] | null>(
    'workspace/symbol',
    { query },
    context.abortSignal,
  );
  const list = answer ?? [];
  if (list.length === 0) return `no symbols match ${JSON.stringify(query)}.`;
  const lines = await Promise.all(
    list.slice(0, MAX_WORKSPACE_SYMBOLS).map(async (symbol) => {
      const path = pathOfUri(symbol.location.uri);
      const where =
        path && 'range' in symbol.location
          ? await view.at(path, symbol.location.range.start.line)
          : (path && view.label(path)) || symbol.location.uri;
      return `${kindName(symbol.kind)} ${symbol.name} — ${where}`;
    }),
  );
  if (list.length > MAX_WORKSPACE_SYMBOLS)
    lines.push(`(${list.length - MAX_WORKSPACE_SYMBOLS} more not shown; narrow the query)`);
  return lines.join('\n');
}

function describeEdit(edit: WorkspaceEdit | undefined, view: SourceView): string[] {
  if (!edit) return [];
  const out: string[] = [];
  const add = (
    uri: string,
    edits: ReadonlyArray<{ range: { start: { line: number } }; newText?: string }>,
  ) => {
    const path = pathOfUri(uri);
    for (const e of edits) {
      if (e.newText === undefined) continue;
      const text = e.newText.length > 120 ? `${e.newText.slice(0, 120)}…` : e.newText;
      out.push(
        `    ${path ? view.label(path) : uri}:${e.range.start.line + 1}: insert/replace with ${JSON.stringify(text)}`,
      );
    }
  };
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) add(uri, edits);
  for (const change of edit.documentChanges ?? [])
    if ('edits' in change) add(change.textDocument.uri, change.edits);
  return out;
}

export async function codeActions(context: ToolUseContext, path: string, at: SymbolAt): Promise<string> {
  const { doc, view, label } = await ask(context, path);
  const range = locateSymbol(doc.text, at, label);
  const all =
    (await documentDiagnostics(
      doc.client,
      path,
      doc.synced,
      ASKED_DIAGNOSTICS_WAIT_MS,
      context.abortSignal,
    )) ?? [];
  const onLine = all.filter(
    (d: Diagnostic) => d.range.start.line <= range.start.line && d.range.end.line >= range.start.line,
  );
  const answer = await doc.client.request<Array<Command | CodeAction> | null>(
    'textDocument/codeAction',
    { textDocument: { uri: doc.synced.uri }, range, context: { diagnostics: onLine } },
    context.abortSignal,
  );
  const list = answer ?? [];
  if (list.length === 0) return `no code actions at ${label}:${at.line} for ${at.symbol}.`;
  const lines: string[] = [];
  for (const item of list.slice(0, MAX_CODE_ACTIONS)) {
    const action = item as CodeAction;
    const kind = action.kind ? ` [${action.kind}]` : '';
    const preferred = action.isPreferred ? ' (preferred)' : '';
    lines.push(`- ${item.title}${kind}${preferred}`);
    lines.push(...describeEdit(action.edit, view));
  }
  if (list.length > MAX_CODE_ACTIONS) lines.push(`(${list.length - MAX_CODE_ACTIONS} more not shown)`);
  const diagnostics = onLine.map((d) => formatDiagnostic(d, label));
  const head = diagnostics.length > 0 ? `Diagnostics on the line:\n${diagnostics.join('\n')}\n` : '';
  return `${head}Code actions at ${label}:${at.line} (apply one with Edit):\n${lines.join('\n')}`;
}
