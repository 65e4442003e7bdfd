/**
 * The evaluated-value attack set (red-team-evaluation-cases.ts) through the real pipeline, and
 * each calibrated row run for real with bash in a scratch project (calibration-run.ts).
 */
import { describe, expect, it } from 'vitest';
import { calibrationSuite } from './calibration-run';
import { decideCase } from './corpus-test-support';
import { RED_TEAM_EVALUATION_CALIBRATED, RED_TEAM_EVALUATION_CASES } from './red-team-evaluation-cases';
import { redTeamCases } from './red-team-suite';

describe('red-team evaluated values', () => {
  redTeamCases(RED_TEAM_EVALUATION_CASES, RED_TEAM_EVALUATION_CALIBRATED);

  it('names the rule and the construct in one line', async () => {
    const asked = await decideCase({
      cmd: "x='a[$(touch pwned)]'; echo $((x))",
      deny: ['Bash(touch:*)'],
      mode: 'bypassPermissions',
      expect: 'ask',
    });
    expect(asked.question).toContain(
      '`echo $((x))`: `$((x))` evaluates variables as arithmetic, which can run commands, so it cannot be checked against Bash(touch:*) (projectSettings)',
    );
  });
});

calibrationSuite(
  'calibration: an evaluated value runs what the deny rule denies',
  RED_TEAM_EVALUATION_CALIBRATED,
);
