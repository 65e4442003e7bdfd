/**
 * What the session has already been told about each file's diagnostics, so a write reports only
 * what is new (seed 002). Keyed by (file, severity, code, message) with a count, position left out:
 * a diagnostic that only moved down four lines is the same one, a second identical error is new,
 * and a fixed one leaves the ledger so its return is reported again.
 */
import type { Diagnostic } from 'vscode-languageserver-protocol';

type Counts = Map<string, number>;

const keyOf = (d: Diagnostic): string => JSON.stringify([d.severity ?? 1, d.code ?? null, d.message]);

function countKeys(diagnostics: readonly Diagnostic[]): Map<string, Diagnostic[]> {
  const groups = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    const key = keyOf(d);
    const group = groups.get(key);
    if (group) group.push(d);
    else groups.set(key, [d]);
  }
  return groups;
}

export class DiagnosticsLedger {
  private readonly files = new Map<string, Counts>();

  /** Whether the file's diagnostics have been recorded (a baseline or an earlier report). */
  knows(file: string): boolean {
    return this.files.has(file);
  }

  /** Records the file's diagnostics as known, reporting none (the state before the first write). */
  baseline(file: string, diagnostics: readonly Diagnostic[]): void {
    this.record(file, countKeys(diagnostics));
  }

  /**
   * Records the file's current diagnostics and returns those not reported before: for each key,
   * the ones beyond the count already known, in the order the server gave them.
   */
  update(file: string, diagnostics: readonly Diagnostic[]): Diagnostic[] {
    const known = this.files.get(file);
    const groups = countKeys(diagnostics);
    const fresh: Diagnostic[] = [];
    for (const [key, group] of groups) {
      const seen = known?.get(key) ?? 0;
      if (group.length > seen) fresh.push(...group.slice(seen));
    }
    this.record(file, groups);
    return fresh.sort((a, b) => a.range.start.line - b.range.start.line);
  }

  private record(file: string, groups: Map<string, Diagnostic[]>): void {
    const counts: Counts = new Map();
    for (const [key, group] of groups) counts.set(key, group.length);
    this.files.set(file, counts);
  }

  forget(file: string): void {
    this.files.delete(file);
  }
}
