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
    const call = { tool_input: {}, tool_use_id: 'toolu_1' };
    expect(matchTargetFor('PreToolUse', { tool_name: 'Bash', ...call })).toBe('Bash');
    expect(matchTargetFor('SessionStart', { source: 'resume', model: 'm' })).toBe('resume');
    expect(matchTargetFor('Notification', { message: 'waiting', notification_type: 'idle' })).toBe('idle');
    expect(matchTargetFor('PreCompact', { trigger: 'manual', custom_instructions: null })).toBe('manual');
    expect(matchTargetFor('StopFailure', { error: 'model_error', error_details: null })).toBe('model_error');
    expect(
      matchTargetFor('Stop', { stop_hook_active: false, last_assistant_message: 'done' }),
    ).toBeUndefined();
  });
});
