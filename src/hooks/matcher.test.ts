import { describe, expect, it } from 'vitest';
import { isInvalidMatcher, matchesTarget, matchTargetFor } from './matcher';

describe('matchesTarget', () => {
  it.each([
    [undefined, 'Bash', true],
    ['', 'Bash', true],
    ['*', 'Bash', true],
    ['Bash', 'Bash', true],
    ['Bash', 'bash', false],
    ['Bas', 'Bash', false],
    ['Edit|Bash', 'Bash', true],
    ['Edit, Bash', 'Bash', true],
    ['Edit|Write', 'Bash', false],
    ['Ba.*', 'Bash', true],
    ['^Bash$', 'Bash', true],
    ['^Bash$', 'BashOutput', false],
    ['mcp__.*__read', 'mcp__fs__read', true],
    ['mcp__my-server__tool', 'mcp__my-server__tool', true],
    ['(unclosed', 'Bash', false],
  ])('%j against %j is %s', (matcher, target, expected) => {
    expect(matchesTarget(matcher, target)).toBe(expected);
  });

  it('ignores the matcher when the event has no target', () => {
    expect(matchesTarget('Bash', undefined)).toBe(true);
  });

  it('knows an unusable regex', () => {
    expect(isInvalidMatcher('(unclosed')).toBe(true);
    expect(isInvalidMatcher('Edit|Bash')).toBe(false);
  });
});

describe('matchTargetFor', () => {
  it('uses the documented field of each event', () => {
    expect(matchTargetFor('PreToolUse', { tool_name: 'Bash' })).toBe('Bash');
    expect(matchTargetFor('SessionStart', { source: 'resume' })).toBe('resume');
    expect(matchTargetFor('Notification', { notification_type: 'idle' })).toBe('idle');
    expect(matchTargetFor('PreCompact', { trigger: 'manual' })).toBe('manual');
    expect(matchTargetFor('StopFailure', { error: { type: 'rate_limit' } })).toBe('rate_limit');
    expect(matchTargetFor('Stop', { tool_name: 'Bash' })).toBeUndefined();
  });
});
