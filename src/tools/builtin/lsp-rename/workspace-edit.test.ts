import { describe, expect, test } from 'vitest';
import type { TextEdit } from 'vscode-languageserver-protocol';
import { applyTextEdits, collectEdits } from './workspace-edit';

const edit = (line: number, from: number, to: number, newText: string, endLine = line): TextEdit => ({
  range: { start: { line, character: from }, end: { line: endLine, character: to } },
  newText,
});

describe('applyTextEdits', () => {
  test('applies edits given in any order against the original text', () => {
    const text = 'let a = 1;\nlet b = a + a;\n';
    expect(applyTextEdits(text, [edit(1, 12, 13, 'x'), edit(0, 4, 5, 'x'), edit(1, 8, 9, 'x')], 'f.ts')).toBe(
      'let x = 1;\nlet b = x + x;\n',
    );
  });

  test('counts columns in UTF-16 units, as LSP does, and keeps CRLF lines intact', () => {
    const text = 'const 𝒳 = "é"; use(𝒳);\r\nnext\r\n';
    // 𝒳 is two UTF-16 units: the second use starts at 20.
    expect(applyTextEdits(text, [edit(0, 6, 8, 'y'), edit(0, 20, 22, 'y')], 'f.ts')).toBe(
      'const y = "é"; use(y);\r\nnext\r\n',
    );
  });

  test('refuses overlapping edits and positions past the end, naming the file', () => {
    expect(() => applyTextEdits('abcdef\n', [edit(0, 0, 3, 'x'), edit(0, 2, 4, 'y')], 'f.ts')).toThrow(
      "The server's edits for f.ts overlap; nothing was changed.",
    );
    expect(() => applyTextEdits('abc\n', [edit(5, 0, 1, 'x')], 'f.ts')).toThrow(
      "The server's edit points past the end of f.ts; nothing was changed.",
    );
  });
});

describe('collectEdits', () => {
  test('merges changes and documentChanges per file', () => {
    const files = collectEdits({
      changes: { 'file:///p/a.ts': [edit(0, 0, 1, 'x')] },
      documentChanges: [
        { textDocument: { uri: 'file:///p/a.ts', version: null }, edits: [edit(2, 0, 1, 'y')] },
      ],
    });
    expect(files).toEqual([{ path: '/p/a.ts', edits: [edit(0, 0, 1, 'x'), edit(2, 0, 1, 'y')] }]);
  });

  test('refuses an edit that would create, rename or delete files', () => {
    expect(() =>
      collectEdits({
        documentChanges: [{ kind: 'rename', oldUri: 'file:///p/a.ts', newUri: 'file:///p/b.ts' }],
      }),
    ).toThrow(
      'The rename would also rename a file (file:///p/a.ts); lsp_rename only changes text, so nothing was changed.',
    );
  });
});
