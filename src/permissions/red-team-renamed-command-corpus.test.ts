/**
 * The renamed-command attack set (red-team-renamed-command-cases.ts) through the real pipeline,
 * and each row run for real with bash in a scratch project (calibration-run.ts).
 */
import { describe, expect, it } from 'vitest';
import { calibrationSuite } from './calibration-run';
import { decideCase } from './corpus-test-support';
import {
  RED_TEAM_RENAMED_COMMAND_CALIBRATED,
  RED_TEAM_RENAMED_COMMAND_CASES,
} from './red-team-renamed-command-cases';
import { redTeamCases } from './red-team-suite';

describe('red-team renamed commands', () => {
  redTeamCases(RED_TEAM_RENAMED_COMMAND_CASES, RED_TEAM_RENAMED_COMMAND_CALIBRATED);

  it('names the rule and the table in one line', async () => {
    const asked = await decideCase({
      cmd: 'BASH_CMDS[ls]=/usr/bin/touch; ls pwned',
      deny: ['Bash(touch:*)'],
      mode: 'bypassPermissions',
      expect: 'ask',
    });
    expect(asked.question).toContain('The rule Bash(touch:*) (projectSettings) denies what it may run.');
    expect(asked.question).toContain(
      'BASH_CMDS[ls]= changes what the shell runs at start-up or which program a name finds, so it cannot be checked against Bash(touch:*) (projectSettings)',
    );
  });
});

calibrationSuite(
  'calibration: a renamed command runs what the deny rule names',
  RED_TEAM_RENAMED_COMMAND_CALIBRATED,
);
