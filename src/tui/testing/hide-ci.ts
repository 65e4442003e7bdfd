/**
 * Import first in a component test: Ink reads CI and CONTINUOUS_INTEGRATION once, when it loads,
 * and in CI writes only the final frame, which would leave nothing to assert on. This module runs
 * before Ink loads (imports evaluate in order) and `restoreCi` puts the variables back after.
 */
const saved = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
process.env.CI = '0';
process.env.CONTINUOUS_INTEGRATION = '0';

export function restoreCi(): void {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}
