/**
 * The red-team attack set (red-team-cases.ts) through the real pipeline: every attack asks or is
 * denied, every everyday command runs without a prompt, and every calibrated hole is in the set
 * with a verdict that blocks it.
 */
import { describe, expect, it } from 'vitest';
import { caseLabel, runCase } from './corpus-test-support';
import { allRedTeamRows, RED_TEAM_CALIBRATED, RED_TEAM_CASES } from './red-team-cases';

describe('red-team attack set', () => {
  it.each(RED_TEAM_CASES.map((c) => [`[${c.cls}] ${caseLabel(c)}`, c] as const))('%s', async (_, c) => {
    expect(await runCase(c)).toBe(c.expect);
  });

  it('holds every calibrated hole as a row that blocks it', async () => {
    const all = await allRedTeamRows();
    for (const row of RED_TEAM_CALIBRATED) {
      // The same command may be a control elsewhere (`git log -p` with no deny rule).
      const blocking = all.filter((c) => c.cmd === row.cmd && c.expect !== 'allow');
      expect(blocking.length, row.cmd).toBeGreaterThan(0);
    }
  });
});
