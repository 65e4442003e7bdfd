import { describe, expect, test } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { DiagnosticsLedger } from './diagnostics-ledger';

const at = (
  line: number,
  message: string,
  code: number | string = 2322,
  severity: 1 | 2 = 1,
): Diagnostic => ({
  range: { start: { line, character: 0 }, end: { line, character: 1 } },
  message,
  code,
  severity,
});

describe('DiagnosticsLedger', () => {
  test('reports a diagnostic once, wherever it moves', () => {
    const ledger = new DiagnosticsLedger();
    expect(ledger.update('a.ts', [at(3, 'bad')])).toEqual([at(3, 'bad')]);
    expect(ledger.update('a.ts', [at(7, 'bad')])).toEqual([]);
  });

  test('severity, code and message each make a different key; files are separate', () => {
    const ledger = new DiagnosticsLedger();
    ledger.update('a.ts', [at(1, 'bad')]);
    expect(ledger.update('a.ts', [at(1, 'bad'), at(1, 'bad', 2345)])).toEqual([at(1, 'bad', 2345)]);
    expect(ledger.update('a.ts', [at(1, 'bad'), at(1, 'bad', 2345), at(1, 'bad', 2322, 2)])).toEqual([
      at(1, 'bad', 2322, 2),
    ]);
    expect(ledger.update('b.ts', [at(1, 'bad')])).toEqual([at(1, 'bad')]);
  });

  test('a second identical diagnostic is new, and the one on a new source line is shown', () => {
    const ledger = new DiagnosticsLedger();
    ledger.update('a.ts', [at(0, 'bad')], 'const a: string = 1;\n');
    const text = 'const b: string = 2;\nconst a: string = 1;\n';
    expect(ledger.update('a.ts', [at(0, 'bad'), at(1, 'bad')], text)).toEqual([at(0, 'bad')]);
  });

  test('a fixed diagnostic leaves the ledger, so its return is new again', () => {
    const ledger = new DiagnosticsLedger();
    ledger.update('a.ts', [at(2, 'bad')]);
    expect(ledger.update('a.ts', [])).toEqual([]);
    expect(ledger.update('a.ts', [at(2, 'bad')])).toEqual([at(2, 'bad')]);
  });

  test('a baseline reports nothing and is known', () => {
    const ledger = new DiagnosticsLedger();
    expect(ledger.knows('a.ts')).toBe(false);
    ledger.baseline('a.ts', [at(1, 'old')]);
    expect(ledger.knows('a.ts')).toBe(true);
    expect(ledger.update('a.ts', [at(1, 'old'), at(4, 'new')])).toEqual([at(4, 'new')]);
  });
});
