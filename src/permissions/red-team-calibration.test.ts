/**
 * Calibration of the red-team holes: each row, run for real with bash in a scratch project, has
 * the effect the permission check now blocks (the runner: calibration-run.ts).
 */
import { calibrationSuite } from './calibration-run';
import { RED_TEAM_CALIBRATED } from './red-team-cases';

calibrationSuite('calibration: each red-team hole has its effect when run', RED_TEAM_CALIBRATED);
