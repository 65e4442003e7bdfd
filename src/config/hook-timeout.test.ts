import { describe, expect, it } from 'vitest';
import { effectiveHookTimeout, hookTimeoutWarnings } from './hook-timeout';
import { parseSettingsText } from './settings-file';

describe('effectiveHookTimeout', () => {
  it.each([
    [undefined, 60, undefined],
    [1, 1, undefined],
    [30, 30, undefined],
    [600, 600, undefined],
    [0.5, 1, undefined],
    [0.0001, 1, undefined],
    [1.2, 2, undefined],
    [601, 600, 'is above the maximum of 600 s; using 600 s'],
    // 3e6 s is 3e9 ms: past a 32-bit timer, which node turns into a 1 ms timeout.
    [3_000_000, 600, 'is above the maximum of 600 s; using 600 s'],
    [0, 60, 'of 0 would skip the hook; using the default of 60 s'],
    [-5, 60, 'is negative; using the default of 60 s'],
    ['30', 60, 'is not a number of seconds; using the default of 60 s'],
    [null, 60, 'is not a number of seconds; using the default of 60 s'],
    [Number.POSITIVE_INFINITY, 60, 'is not a number of seconds; using the default of 60 s'],
    [Number.NaN, 60, 'is not a number of seconds; using the default of 60 s'],
  ])('%s → %s s', (value, seconds, problem) => {
    expect(effectiveHookTimeout(value)).toEqual(problem === undefined ? { seconds } : { seconds, problem });
  });
});

describe('hook timeouts in a settings file', () => {
  const text = JSON.stringify({
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'command', command: './guard.sh', timeout: 3000000 },
            { type: 'command', command: './ok.sh', timeout: 10 },
          ],
        },
      ],
      Stop: [{ hooks: [{ type: 'command', command: './stop.sh', timeout: -1 }, './plain.sh'] }],
    },
  });

  it('loads every value as the timeout that applies, and keeps the rest of the file', () => {
    const parsed = parseSettingsText(text, '/p/.yoke/settings.json');
    expect(parsed.errors).toBeUndefined();
    const [guard, ok] = parsed.settings?.hooks?.PreToolUse?.[0]?.hooks ?? [];
    expect(guard?.timeout).toBe(600);
    expect(ok?.timeout).toBe(10);
    expect(parsed.settings?.hooks?.Stop?.[0]?.hooks[0]?.timeout).toBe(60);
  });

  it('warns once per corrected value, naming the file, the place and the command', () => {
    expect(parseSettingsText(text, '/p/.yoke/settings.json').warnings).toEqual([
      'settings /p/.yoke/settings.json: hooks.PreToolUse[0].hooks[0] ("./guard.sh"): timeout 3000000 is above the maximum of 600 s; using 600 s',
      'settings /p/.yoke/settings.json: hooks.Stop[0].hooks[0] ("./stop.sh"): timeout -1 is negative; using the default of 60 s',
    ]);
    expect(hookTimeoutWarnings({ hooks: { Stop: 'not a list' } }, 'x')).toEqual([]);
  });
});
