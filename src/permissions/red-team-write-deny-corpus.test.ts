/**
 * The Edit-deny attack set (red-team-write-deny-cases.ts) through the real pipeline, and each row
 * run for real with bash in a scratch project (calibration-run.ts): the denied file changed.
 */
import { describe } from 'vitest';
import { calibrationSuite } from './calibration-run';
import { redTeamCases } from './red-team-suite';
import { RED_TEAM_WRITE_DENY_CALIBRATED, RED_TEAM_WRITE_DENY_CASES } from './red-team-write-deny-cases';

describe('red-team write denies', () => {
  redTeamCases(RED_TEAM_WRITE_DENY_CASES, RED_TEAM_WRITE_DENY_CALIBRATED);
});

calibrationSuite(
  'calibration: each write the Edit deny rule now blocks changes the file',
  RED_TEAM_WRITE_DENY_CALIBRATED,
);
