import { describe, expect, it } from 'vitest';
import { createToolResultMessage, createUserMessage } from './messages';
import { repairToolPairs } from './transcript-repair';
import { assistant } from './transcript-test-support';

const result = (id: string) =>
  createToolResultMessage({ type: 'tool_result', tool_use_id: id, content: 'ok' });

describe('repairToolPairs', () => {
  it('leaves a complete history alone', () => {
    const history = [
      createUserMessage('go'),
      assistant([{ type: 'tool_use', id: 'a', name: 'Read', input: {} }]),
      result('a'),
      assistant([{ type: 'text', text: 'done' }]),
    ];
    expect(repairToolPairs(history)).toEqual({ messages: history, synthesized: [], droppedResults: [] });
  });

  it('answers calls a crash cut off, before the next response, and drops orphaned results', () => {
    const call = assistant([
      { type: 'tool_use', id: 'a', name: 'Read', input: {} },
      { type: 'tool_use', id: 'b', name: 'Read', input: {} },
    ]);
    const next = createUserMessage('continue');
    const later = assistant([{ type: 'text', text: 'ok' }]);
    const report = repairToolPairs([createUserMessage('go'), result('zzz'), call, result('a'), next, later]);
    expect(report.synthesized).toEqual(['b']);
    expect(report.droppedResults).toEqual(['zzz']);
    const ids = report.messages.map((m) =>
      m.type === 'user' && Array.isArray(m.message.content) && m.message.content[0]?.type === 'tool_result'
        ? m.message.content[0].tool_use_id
        : m.type,
    );
    expect(ids).toEqual(['user', 'assistant', 'a', 'user', 'b', 'assistant']);
  });
});
