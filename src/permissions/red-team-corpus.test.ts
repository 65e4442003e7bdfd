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

  it('holds every calibrated hole as a row that does not allow it', async () => {
    const all = await allRedTeamRows();
    for (const row of RED_TEAM_CALIBRATED) {
      const found = all.filter((c) => c.cmd === row.cmd);
      expect(found.length, row.cmd).toBeGreaterThan(0);
      for (const c of found) expect(c.expect, row.cmd).not.toBe('allow');
    }
  });
});
