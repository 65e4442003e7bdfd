/**
 * The unread-command attack set (red-team-unread-command-cases.ts) through the real pipeline, and
 * each calibrated row run for real with bash in a scratch project (calibration-run.ts).
 */
import { describe, expect, it } from 'vitest';
import { calibrationSuite } from './calibration-run';
import { decideCase } from './corpus-test-support';
import { redTeamCases } from './red-team-suite';
import {
  RED_TEAM_UNREAD_COMMAND_CALIBRATED,
  RED_TEAM_UNREAD_COMMAND_CASES,
} from './red-team-unread-command-cases';

describe('red-team unread commands', () => {
  redTeamCases(RED_TEAM_UNREAD_COMMAND_CASES, RED_TEAM_UNREAD_COMMAND_CALIBRATED);

  it('names the rule and why the command cannot be checked', async () => {
    const asked = await decideCase({
      cmd: 'npm run build',
      deny: ['Bash(touch:*)'],
      mode: 'bypassPermissions',
      expect: 'ask',
    });
    expect(asked.question).toContain('The rule Bash(touch:*) (projectSettings) denies what it may run.');
    expect(asked.question).toContain(
      'npm run may run package scripts the line does not show, so it cannot be checked against Bash(touch:*) (projectSettings)',
    );
  });
});

calibrationSuite(
  'calibration: an unread command runs what the deny rule names',
  RED_TEAM_UNREAD_COMMAND_CALIBRATED,
);
