import { describe, expect, it } from 'vitest';
import { contextEditOf } from '../../session/context-edits';
import { createSystemMessage, createUserMessage, type Message } from '../../session/messages';
import { messagesTokens } from './context-messages';
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
    // The event records the cut, so a resume can replay it: what went, and the marker for it.
    expect(event && contextEditOf(event)).toEqual({
      kind: 'snip',
      spans: [{ removedUuids: messages.slice(0, -8).map((m) => m.uuid), replacement: out[0] }],
    });
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

describe('snipHistory by tokens', () => {
  it('waits for the trigger, then cuts the oldest rounds until the rest fits the target', () => {
    const messages = conversation(20, 400); // ~21 rounds of ~110 tokens each
    const total = messagesTokens(messages);
    const budget = { contextTokens: total, triggerTokens: total + 1, targetTokens: total / 2 };
    expect(snipHistory(messages, { keepTurns: 2 }, budget).removed).toBe(0);

    const { messages: out, event } = snipHistory(
      messages,
      { keepTurns: 2 },
      { ...budget, triggerTokens: total },
    );
    const kept = out.slice(1);
    expect(event).toMatchObject({
      type: 'system',
      content: `Snipped ${messages.length - kept.length} old messages from the context.`,
    });
    expect(messagesTokens(kept)).toBeLessThanOrEqual(total / 2);
    // As deep as needed and no deeper: one round more would have fitted too.
    expect(messagesTokens(messages, messages.length - kept.length - 2)).toBeGreaterThan(total / 2);
    expect(kept).toEqual(messages.slice(-kept.length));
    assertValidForApi(out);
  });

  it('never cuts into the newest keepTurns rounds, whatever the target', () => {
    const messages = conversation(6, 4_000);
    const total = messagesTokens(messages);
    const { messages: out } = snipHistory(
      messages,
      { keepTurns: 4 },
      { contextTokens: total, triggerTokens: 0, targetTokens: 10 },
    );
    expect(out.slice(1)).toEqual(messages.slice(-8));
  });
});
