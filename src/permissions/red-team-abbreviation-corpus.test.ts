/**
 * The abbreviated-option attack set (red-team-abbreviation-cases.ts) through the real pipeline,
 * and each calibrated row run for real with bash in a scratch project (calibration-run.ts).
 */
import { describe, expect, it } from 'vitest';
import { calibrationSuite } from './calibration-run';
import { decideCase } from './corpus-test-support';
import { RED_TEAM_ABBREVIATION_CALIBRATED, RED_TEAM_ABBREVIATION_CASES } from './red-team-abbreviation-cases';
import { redTeamCases } from './red-team-suite';

describe('red-team abbreviated options', () => {
  redTeamCases(RED_TEAM_ABBREVIATION_CASES, RED_TEAM_ABBREVIATION_CALIBRATED);

  it('warns of the option the prefix stands for', async () => {
    const asked = await decideCase({ cmd: 'git reset --ha', allow: ['Bash(git reset:*)'], expect: 'ask' });
    expect(asked.question).toContain('git reset --hard discards uncommitted changes');
  });
});

calibrationSuite(
  'calibration: an abbreviated option has the destructive effect',
  RED_TEAM_ABBREVIATION_CALIBRATED,
);
