import { describe, expect, it } from 'vitest';
import type { AssistantContentBlock } from '../model/types';
import {
  type AssistantMessage,
  createSystemMessage,
  createToolResultMessage,
  createUserMessage,
} from '../session/messages';
import { stripThinking, toApiMessages } from './api-messages';
import { createAssistantMessage } from './stream-assembler';

const block = (id: string, content: AssistantContentBlock): AssistantMessage =>
  createAssistantMessage([content], { id, model: 'm' });

const toolUse = (id: string): AssistantContentBlock => ({ type: 'tool_use', id, name: 'Echo', input: {} });

describe('toApiMessages', () => {
  it('merges the block messages of one response and keeps separate responses apart', () => {
    const api = toApiMessages([
      createUserMessage('hi'),
      block('msg_1', { type: 'thinking', thinking: 'hm', signature: 's' }),
      block('msg_1', { type: 'text', text: 'Let me look.' }),
      block('msg_1', toolUse('t1')),
      createToolResultMessage({ type: 'tool_result', tool_use_id: 't1', content: 'ok' }),
      block('msg_2', { type: 'text', text: 'Done.' }),
    ]);
    expect(api.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(api[1]?.content).toEqual([
      { type: 'thinking', thinking: 'hm', signature: 's' },
      { type: 'text', text: 'Let me look.' },
      toolUse('t1'),
    ]);
  });

  it('merges consecutive user messages with tool results first and strings as text blocks', () => {
    const api = toApiMessages([
      createUserMessage('first'),
      block('msg_1', toolUse('t1')),
      block('msg_1', toolUse('t2')),
      createToolResultMessage({ type: 'tool_result', tool_use_id: 't1', content: 'a' }),
      createUserMessage('a reminder', { isMeta: true }),
      createToolResultMessage({ type: 'tool_result', tool_use_id: 't2', content: 'b' }),
    ]);
    expect(api).toHaveLength(3);
    expect(api[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: 'a' },
        { type: 'tool_result', tool_use_id: 't2', content: 'b' },
        { type: 'text', text: 'a reminder' },
      ],
    });
    expect(api[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'first' }] });
  });

  it('drops system messages, API-error reports and empty messages', () => {
    const error = createAssistantMessage(
      [{ type: 'text', text: 'API Error' }],
      { id: 'e', model: 'm' },
      { apiError: 'API Error' },
    );
    const api = toApiMessages([
      createUserMessage('one'),
      createSystemMessage('informational', 'note'),
      createAssistantMessage([], { id: 'empty', model: 'm' }),
      error,
      createUserMessage(''),
      createUserMessage('two'),
    ]);
    expect(api).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
    ]);
  });
});

describe('stripThinking', () => {
  it('removes thinking blocks, drops emptied messages and leaves other messages untouched', () => {
    const user = createUserMessage('hi');
    const mixed = createAssistantMessage(
      [
        { type: 'thinking', thinking: 'hm', signature: 's' },
        { type: 'text', text: 'answer' },
      ],
      { id: 'msg_1', model: 'm' },
    );
    const onlyRedacted = block('msg_1', { type: 'redacted_thinking', data: 'xx' });
    const out = stripThinking([user, onlyRedacted, mixed]);
    expect(out).toHaveLength(2);
    expect(out[0]).toBe(user);
    expect(out[1]?.type === 'assistant' && out[1].message.content).toEqual([
      { type: 'text', text: 'answer' },
    ]);
    expect(mixed.message.content).toHaveLength(2);
  });
});
