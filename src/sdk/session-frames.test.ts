import { describe, expect, it } from 'vitest';
import { failedTurnResult } from './session-frames';

describe('failedTurnResult', () => {
  it('has the fields of an engine result, api_error_status included', () => {
    const result = failedTurnResult('s-1', 'boom', Date.now());
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'error_during_execution',
      is_error: true,
      errors: ['boom'],
      api_error_status: null,
      session_id: 's-1',
    });
  });
});
