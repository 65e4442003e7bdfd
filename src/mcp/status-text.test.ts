import { describe, expect, it } from 'vitest';
import { serverStatusText } from './status-text';

describe('serverStatusText', () => {
  it('a server still starting says so, not "pending: undefined"', () => {
    expect(serverStatusText({ status: 'pending', tools: [] })).toBe(
      'pending: starting (its tools join once it answers)',
    );
    expect(serverStatusText({ status: 'failed', tools: [] })).toBe('failed');
  });

  it('a reason, where there is one, follows the status', () => {
    expect(serverStatusText({ status: 'failed', error: 'command not found: x', tools: [] })).toBe(
      'failed: command not found: x',
    );
    expect(serverStatusText({ status: 'connected', tools: [{ name: 'a' }] as never })).toBe(
      'connected · 1 tool',
    );
  });
});
