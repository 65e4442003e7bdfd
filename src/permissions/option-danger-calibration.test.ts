/**
 * Calibration: every row of the dangerous-option corpus, run for real with bash in a scratch
 * folder, has the effect the permission check blocks (the runner: calibration-run.ts).
 */
import { calibrationSuite } from './calibration-run';
import { DANGER_CASES } from './option-danger-cases';

calibrationSuite('calibration: each dangerous option has its effect when run', DANGER_CASES);
