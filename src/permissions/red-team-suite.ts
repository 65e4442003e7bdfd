/**
 * Test support for the red-team corpus suites: every case through the real decision, and every
 * calibrated hole held by a case that blocks it (a calibration with no such row proves nothing).
 */
import { expect, it } from 'vitest';
import { type CaseOptions, caseLabel, runCase } from './corpus-test-support';
import type { DangerCase } from './option-danger-cases';
import type { RedTeamCase } from './red-team-rows';

/** Inside a `describe`: one test per case, and one that each calibrated command has a blocking row. */
export function redTeamCases(
  cases: readonly RedTeamCase[],
  calibrated: readonly DangerCase[],
  options: CaseOptions = {},
): void {
  it.each(cases.map((c) => [`[${c.cls}] ${caseLabel(c)}`, c] as const))('%s', async (_, c) => {
    expect(await runCase(c, options)).toBe(c.expect);
  });

  it('holds every calibrated hole as a row that blocks it', () => expectBlocked(cases, calibrated));
}

/** Each calibrated command has a case that asks or denies it. */
export function expectBlocked(cases: readonly RedTeamCase[], calibrated: readonly DangerCase[]): void {
  for (const row of calibrated) {
    const blocking = cases.filter((c) => c.cmd === row.cmd && c.expect !== 'allow');
    expect(blocking.length, row.cmd).toBeGreaterThan(0);
  }
}
