/**
 * The program-option attack set (red-team-program-option-cases.ts) through the real pipeline, and
 * each calibrated row run for real with bash in a scratch project (calibration-run.ts).
 */
import { describe, expect, it } from 'vitest';
import { calibrationSuite } from './calibration-run';
import { decideCase } from './corpus-test-support';
import {
  RED_TEAM_PROGRAM_OPTION_CALIBRATED,
  RED_TEAM_PROGRAM_OPTION_CASES,
} from './red-team-program-option-cases';
import { redTeamCases } from './red-team-suite';

describe('red-team program options', () => {
  redTeamCases(RED_TEAM_PROGRAM_OPTION_CASES, RED_TEAM_PROGRAM_OPTION_CALIBRATED);

  it("names the subcommand's option after git's own, in one line", async () => {
    const asked = await decideCase({
      cmd: 'git -c color.ui=never diff --textconv HEAD~1',
      deny: ['Bash(touch:*)'],
      mode: 'bypassPermissions',
      expect: 'ask',
    });
    expect(asked.question).toContain(
      '`git -c color.ui=never diff --textconv HEAD~1`: git diff --textconv runs the text conversion filters the repository configures, so it cannot be checked against Bash(touch:*) (projectSettings)',
    );
  });
});

calibrationSuite(
  'calibration: a program an option names runs what the deny rule denies',
  RED_TEAM_PROGRAM_OPTION_CALIBRATED,
);
