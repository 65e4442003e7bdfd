/**
 * What the session has already been told about each file's diagnostics, so a write reports only
 * what is new (seed 002). Keyed by (file, severity, code, message) with a count, position left out:
 * a diagnostic that only moved down four lines is the same one, a second identical error is new,
 * and a fixed one leaves the ledger so its return is reported again.
 */
import type { Diagnostic } from 'vscode-languageserver-protocol';

/** Per key: how many there were, and the source lines they sat on (to tell which one is new). */
type Known = Map<string, string[]>;

const keyOf = (d: Diagnostic): string =>
  JSON.stringify([
    d.severity ?? 1,
    d.code ?? null,
    typeof d.message === 'string' ? d.message : d.message.value,
  ]);

function group(diagnostics: readonly Diagnostic[]): Map<string, Diagnostic[]> {
  const groups = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    const key = keyOf(d);
    const list = groups.get(key);
    if (list) list.push(d);
    else groups.set(key, [d]);
  }
  return groups;
}

export class DiagnosticsLedger {
  private readonly files = new Map<string, Known>();

  /** Whether the file's diagnostics have been recorded (a baseline or an earlier report). */
  knows(file: string): boolean {
    return this.files.has(file);
  }

  /** Records the file's diagnostics as known, reporting none (the state before the first write). */
  baseline(file: string, diagnostics: readonly Diagnostic[], text?: string): void {
    this.record(file, group(diagnostics), anchorsOf(text));
  }

  /**
   * Records the file's current diagnostics and returns those not reported before: for each key,
   * as many as exceed the count already known — preferably those on a source line where none of
   * that key was before, so the copy the write added is the one shown.
   */
  update(file: string, diagnostics: readonly Diagnostic[], text?: string): Diagnostic[] {
    const known = this.files.get(file);
    const anchor = anchorsOf(text);
    const groups = group(diagnostics);
    const fresh: Diagnostic[] = [];
    for (const [key, list] of groups) {
      const before = known?.get(key) ?? [];
      const extra = list.length - before.length;
      if (extra <= 0) continue;
      const remaining = [...before];
      const unmatched = list.filter((d) => {
        const at = remaining.indexOf(anchor(d));
        if (at === -1) return true;
        remaining.splice(at, 1);
        return false;
      });
      const pool =
        unmatched.length >= extra ? unmatched : [...unmatched, ...list.filter((d) => !unmatched.includes(d))];
      fresh.push(...pool.slice(0, extra));
    }
    this.record(file, groups, anchor);
    return fresh.sort((a, b) => a.range.start.line - b.range.start.line);
  }

  private record(file: string, groups: Map<string, Diagnostic[]>, anchor: (d: Diagnostic) => string): void {
    const known: Known = new Map();
    for (const [key, list] of groups) known.set(key, list.map(anchor));
    this.files.set(file, known);
  }
}

/** The trimmed source line a diagnostic starts on (empty without the text). */
function anchorsOf(text: string | undefined): (d: Diagnostic) => string {
  const lines = text?.split('\n');
  return (d) => lines?.[d.range.start.line]?.trim() ?? '';
}
