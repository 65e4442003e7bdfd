import { describe, expect, it } from 'vitest';
import { createSystemMessage, createUserMessage, type Message } from '../../session/messages';
import { assertValidForApi, conversation, userText } from './context-test-support';
import { SNIP_MARKER_PREFIX, snipHistory } from './snip';

describe('snipHistory', () => {
  it('waits for half a window of slack before cutting', () => {
    const messages = conversation(6); // 7 rounds: the prompt and 6 tool rounds
    expect(snipHistory(messages, { keepTurns: 5 }).removed).toBe(0);
  });

  it('keeps the newest keepTurns rounds whole, behind a marker, and never splits a tool pair', () => {
    const messages = conversation(12);
    const { messages: out, event } = snipHistory(messages, { keepTurns: 4 });
    expect(userText(out[0]).startsWith(SNIP_MARKER_PREFIX)).toBe(true);
    expect(out.slice(1)).toEqual(messages.slice(-8));
    expect(event?.data?.snip).toBeDefined();
    assertValidForApi(out);
  });

  it('leaves the last compaction summary in place and counts across snips', () => {
    const head: Message[] = [
      createSystemMessage('compact_boundary', 'compacted', { data: { trigger: 'auto' } }),
      createUserMessage('summary', { isMeta: true }),
    ];
    const first = snipHistory([...head, ...conversation(12)], { keepTurns: 4 }).messages;
    expect(first.slice(0, 2)).toEqual(head);
    const second = snipHistory([...first, ...conversation(6).slice(1)], { keepTurns: 4 }).messages;
    expect(second.slice(0, 2)).toEqual(head);
    const markers = second.filter((m) => userText(m).startsWith(SNIP_MARKER_PREFIX));
    expect(markers).toHaveLength(1);
    expect(userText(markers[0])).toContain('29 older messages');
    assertValidForApi(second);
  });
});
