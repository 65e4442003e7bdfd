import { describe, expect, it } from 'vitest';
import { ModeAndPool } from './mode-and-pool';

describe('ModeAndPool: modes the settings turned off', () => {
  const disabledModes = {
    auto: 'Permission mode auto is disabled by permissions.disableAutoMode (userSettings).',
  };
  const modes = () =>
    new ModeAndPool({ tools: [] }, { mode: 'default', rules: [], additionalDirectories: [], disabledModes });

  it('refuses a switch into one with the settings line, and keeps the mode it had', () => {
    const pool = modes();
    expect(() => pool.setMode('auto')).toThrow(disabledModes.auto);
    expect(pool.context.mode).toBe('default');
  });

  it('switches into the others as before (control), the refusal kept for later switches', () => {
    const pool = modes();
    pool.setMode('acceptEdits');
    expect(pool.context.mode).toBe('acceptEdits');
    expect(pool.switchFromTool('plan')).toBe('plan');
    expect(pool.switchFromTool('before-plan')).toBe('acceptEdits');
    expect(() => pool.setMode('auto')).toThrow(disabledModes.auto);
  });
});
