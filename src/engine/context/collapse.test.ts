import { describe, expect, it } from 'vitest';
import { createUserMessage } from '../../session/messages';
import { COLLAPSE_PREFIX, collapseToolRuns } from './collapse';
import { assertValidForApi, assistant, conversation, userText } from './context-test-support';

const options = { triggerTokens: 100, keepRecentRounds: 3, minRounds: 2 };

describe('collapseToolRuns', () => {
  it('folds old tool rounds into one deterministic note and keeps the recent ones', () => {
    const messages = conversation(8);
    const { messages: out, folded, event } = collapseToolRuns(messages, 10_000, options);
    // 9 rounds (prompt + 8 tool rounds): the newest 3 stay, the prompt stays, 5 tool rounds fold.
    expect(folded).toBe(5);
    expect(out[0]).toBe(messages[0]);
    const note = userText(out[1]);
    expect(note.startsWith(COLLAPSE_PREFIX)).toBe(true);
    expect(note).toContain('- Read({"file_path":"/src/t0.ts"}) → line one of 0');
    expect(note).toContain('t4.ts');
    expect(note).not.toContain('t5.ts');
    expect(out.slice(2)).toEqual(messages.slice(-6));
    expect(event?.data?.collapse).toBeDefined();
    assertValidForApi(out);
  });

  it('does not fold across a user prompt or an answer without tools, and not below the trigger', () => {
    const messages = [
      ...conversation(3),
      assistant([{ type: 'text', text: 'Done with part one.' }]),
      createUserMessage('Now part two.'),
      ...conversation(6).slice(1),
    ];
    expect(collapseToolRuns(messages, 10, options).folded).toBe(0);
    const { messages: out } = collapseToolRuns(messages, 10_000, options);
    expect(out.filter((m) => userText(m).startsWith(COLLAPSE_PREFIX))).toHaveLength(2);
    expect(out.some((m) => userText(m) === 'Now part two.')).toBe(true);
    assertValidForApi(out);
  });
});
