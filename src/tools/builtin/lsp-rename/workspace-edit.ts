/**
 * A server's WorkspaceEdit as file contents: which files change and their new text. Only text
 * edits are taken: an edit that would create, rename or delete files is refused whole, since a
 * rename must be all or nothing.
 */
import type { Position, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { ToolError } from '../../tool';
import { pathOfUri } from '../lsp/format';

export type FileEdits = { path: string; edits: TextEdit[] };

export function collectEdits(edit: WorkspaceEdit): FileEdits[] {
  const byPath = new Map<string, TextEdit[]>();
  const add = (uri: string, edits: readonly TextEdit[]) => {
    const path = pathOfUri(uri);
    if (!path)
      throw new ToolError(
        `The rename would change ${uri}, which is not a file on this machine; nothing was changed.`,
      );
    const list = byPath.get(path) ?? [];
    list.push(...edits);
    byPath.set(path, list);
  };
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) add(uri, edits);
  for (const change of edit.documentChanges ?? []) {
    if (!('edits' in change))
      throw new ToolError(
        `The rename would also ${change.kind} a file (${'uri' in change ? change.uri : change.oldUri}); lsp_rename only changes text, so nothing was changed.`,
      );
    add(
      change.textDocument.uri,
      change.edits.filter((e): e is TextEdit => 'newText' in e && typeof e.newText === 'string'),
    );
  }
  return [...byPath].map(([path, edits]) => ({ path, edits })).filter((f) => f.edits.length > 0);
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function offsetAt(text: string, starts: readonly number[], position: Position, path: string): number {
  const start = starts[position.line];
  if (start === undefined)
    throw new ToolError(`The server's edit points past the end of ${path}; nothing was changed.`);
  const next = starts[position.line + 1] ?? text.length + 1;
  return Math.min(start + position.character, next - 1);
}

/** Applies edits given against `text` (LSP: all relative to the original, none overlapping). */
export function applyTextEdits(text: string, edits: readonly TextEdit[], path: string): string {
  const starts = lineStarts(text);
  const spans = edits
    .map((e) => ({
      from: offsetAt(text, starts, e.range.start, path),
      to: offsetAt(text, starts, e.range.end, path),
      text: e.newText,
    }))
    .sort((a, b) => a.from - b.from || a.to - b.to);
  let out = '';
  let at = 0;
  for (const span of spans) {
    if (span.from < at || span.to < span.from)
      throw new ToolError(`The server's edits for ${path} overlap; nothing was changed.`);
    out += text.slice(at, span.from) + span.text;
    at = span.to;
  }
  return out + text.slice(at);
}
