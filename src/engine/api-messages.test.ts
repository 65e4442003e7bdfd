import { describe, expect, it } from 'vitest';
import { estimateMessagesTokens } from '../model/tokens';
import type { AssistantContentBlock } from '../model/types';
import {
  type AssistantMessage,
  createSystemMessage,
  createToolResultMessage,
  createUserMessage,
  type Message,
} from '../session/messages';
import { ApiProjection, stripThinking, toApiMessages } from './api-messages';
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

describe('ApiProjection', () => {
  /** Projects each history in turn and checks it against a fresh projection and estimate. */
  const check = (projection: ApiProjection, messages: Message[]) => {
    const api = projection.project(messages);
    expect(api).toEqual(toApiMessages(messages));
    expect(projection.tokens).toBe(estimateMessagesTokens(toApiMessages(messages)));
    return api;
  };

  it('equals toApiMessages as history grows, a response spans calls, and messages are replaced', () => {
    const projection = new ApiProjection();
    const history: Message[] = [createUserMessage('hi')];
    check(projection, history);
    history.push(block('msg_1', { type: 'text', text: 'Let me look.' }));
    check(projection, history);
    // The same response goes on: the last output message must grow, not be followed by another.
    history.push(block('msg_1', toolUse('t1')));
    const before = check(projection, history);
    history.push(
      createToolResultMessage({ type: 'tool_result', tool_use_id: 't1', content: 'ok' }),
      createSystemMessage('informational', 'note'),
      createUserMessage('and more'),
    );
    check(projection, history);
    // Earlier requests keep what they were sent.
    expect(before.map((m) => m.role)).toEqual(['user', 'assistant']);
    history.push(block('msg_2', toolUse('t2')));
    history.push(createToolResultMessage({ type: 'tool_result', tool_use_id: 't2', content: 'x' }));
    check(projection, history);
    // A message replaced in the middle (a compacted tool result) re-projects from its turn on.
    history[3] = createToolResultMessage({ type: 'tool_result', tool_use_id: 't1', content: '[cleared]' });
    check(projection, history);
    // A shorter, different history (a compaction) and an empty one.
    check(projection, [createUserMessage('summary'), ...history.slice(5)]);
    check(projection, []);
    check(projection, history);
  });

  it('does not re-project unchanged history', () => {
    const projection = new ApiProjection();
    const history: Message[] = [createUserMessage('hi'), block('msg_1', toolUse('t1'))];
    const first = projection.project(history);
    history.push(createToolResultMessage({ type: 'tool_result', tool_use_id: 't1', content: 'ok' }));
    history.push(block('msg_2', toolUse('t2')));
    const second = projection.project(history);
    // Finished speaker turns are the same objects; the last one (it might continue) is rebuilt.
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1]).toEqual(first[1]);
    expect(second).toHaveLength(4);
    history.push(createToolResultMessage({ type: 'tool_result', tool_use_id: 't2', content: 'ok' }));
    const third = projection.project(history);
    expect(third.slice(0, 3)).toEqual(second.slice(0, 3));
    for (let i = 0; i < 3; i++) expect(third[i]).toBe(second[i]);
  });
});
