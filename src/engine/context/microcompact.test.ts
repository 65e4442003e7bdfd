import { describe, expect, it } from 'vitest';
import { createToolResultMessage, createUserMessage, type Message } from '../../session/messages';
import { messagesTokens } from './context-messages';
import { conversation, resultContent, toolRound } from './context-test-support';
import { CLEARED_TOOL_RESULT, microcompact } from './microcompact';

const options = { triggerTokens: 1_000, keepRecent: 3, minClearTokens: 500 };

describe('microcompact', () => {
  it('does nothing below the trigger', () => {
    const messages = conversation(10);
    expect(microcompact(messages, 999, options).messages).toBe(messages);
  });

  it('clears every consumed result except the newest N in one batch, keeping the blocks', () => {
    const messages = [...conversation(10), ...toolRound('last', 'fresh')];
    const reported: string[] = [];
    const out = microcompact(messages, messagesTokens(messages), {
      ...options,
      onContentReplacement: (uuid) => reported.push(uuid),
    });
    expect(out.cleared).toBe(8);
    for (let i = 0; i < 8; i++) expect(resultContent(out.messages, `t${i}`)).toBe(CLEARED_TOOL_RESULT);
    expect(resultContent(out.messages, 't8')).toContain('line one of 8');
    expect(resultContent(out.messages, 'last')).toBe('fresh');
    expect(reported).toHaveLength(8);
    expect(out.freedTokens).toBeGreaterThan(500);
  });

  it('keeps ToolSearch results, whose tool_reference blocks show the loaded schemas', () => {
    const references = [{ type: 'tool_reference' as const, tool_name: 'mcp__gh__create_issue' }];
    const search: Message[] = [
      ...toolRound('search', 'placeholder', 'ToolSearch').slice(0, 1),
      createToolResultMessage({ type: 'tool_result', tool_use_id: 'search', content: references }),
    ];
    const messages = [createUserMessage('go'), ...search, ...conversation(10).slice(1)];
    const out = microcompact(messages, messagesTokens(messages), options);
    expect(out.cleared).toBe(7);
    expect(resultContent(out.messages, 'search')).toEqual(references);
    expect(resultContent(out.messages, 't0')).toBe(CLEARED_TOOL_RESULT);
  });

  it('does not clear one more result per turn: the next batch waits for enough gain', () => {
    let messages: Message[] = conversation(10);
    messages = microcompact(messages, 10_000, options).messages;
    // One more round ages one more result past the newest three: too little to break the cache for.
    const next = [...messages, ...toolRound('n1', `r\n${'y'.repeat(400)}`)];
    const second = microcompact(next, 10_000, options);
    expect(second.cleared).toBe(0);
    expect(second.messages).toBe(next);
    // Several more rounds make it worth it; all six aged results go together.
    const later = [
      ...next,
      ...['n2', 'n3', 'n4', 'n5', 'n6'].flatMap((id) => toolRound(id, `r\n${'y'.repeat(400)}`)),
    ];
    expect(microcompact(later, 10_000, options).cleared).toBe(6);
  });

  it('never clears a result the model has not answered yet', () => {
    const messages = conversation(10);
    const out = microcompact(messages, 10_000, { ...options, keepRecent: 0 });
    expect(resultContent(out.messages, 't9')).toContain('line one of 9');
    expect(resultContent(out.messages, 't8')).toBe(CLEARED_TOOL_RESULT);
  });
});
