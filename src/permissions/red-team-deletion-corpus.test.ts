/**
 * The deletion attack set (red-team-deletion-cases.ts) through the real pipeline, and each row
 * run for real with bash in a scratch project (calibration-run.ts).
 */
import { describe, expect, it } from 'vitest';
import { calibrationSuite } from './calibration-run';
import { decideCase } from './corpus-test-support';
import { RED_TEAM_DELETION_CALIBRATED, RED_TEAM_DELETION_CASES } from './red-team-deletion-cases';
import { redTeamCases } from './red-team-suite';

describe('red-team deletion under another name', () => {
  redTeamCases(RED_TEAM_DELETION_CASES, RED_TEAM_DELETION_CALIBRATED);

  it('says why in the question', async () => {
    const asked = await decideCase({
      cmd: 'rsync -a --delete empty/ src/',
      allow: ['Bash(rsync:*)'],
      expect: 'ask',
    });
    expect(asked.question).toContain(
      'rsync --delete deletes the files in the destination that the source lacks',
    );
  });
});

calibrationSuite(
  'calibration: deletion under another name removes or empties files',
  RED_TEAM_DELETION_CALIBRATED,
);
