/**
 * Builders for the context stages' tests: conversations of tool rounds with controllable sizes,
 * and a check that a history still forms a valid API request.
 */
import { emptyUsage, type Usage } from '../../model/types';
import {
  type AssistantMessage,
  createToolResultMessage,
  createUserMessage,
  type Message,
  type UserMessage,
} from '../../session/messages';
import { toApiMessages } from '../api-messages';

let counter = 0;

export function assistant(
  content: AssistantMessage['message']['content'],
  usage: Partial<Usage> = {},
): AssistantMessage {
  counter++;
  return {
    type: 'assistant',
    uuid: `a-${counter}`,
    timestamp: new Date(0).toISOString(),
    message: {
      id: `msg_${counter}`,
      model: 'claude-sonnet-4-5',
      role: 'assistant',
      content,
      stop_reason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { ...emptyUsage(), ...usage },
    },
  };
}

export function toolRound(
  id: string,
  resultText: string,
  name = 'Read',
  usage: Partial<Usage> = {},
): Message[] {
  return [
    assistant([{ type: 'tool_use', id, name, input: { file_path: `/src/${id}.ts` } }], usage),
    createToolResultMessage({ type: 'tool_result', tool_use_id: id, content: resultText }),
  ];
}

/** A user prompt followed by `rounds` tool rounds whose results are `size` characters. */
export function conversation(rounds: number, size = 400, prompt = 'Please fix the bug.'): Message[] {
  const out: Message[] = [createUserMessage(prompt)];
  for (let i = 0; i < rounds; i++) out.push(...toolRound(`t${i}`, `line one of ${i}\n${'x'.repeat(size)}`));
  return out;
}

export function resultContent(messages: readonly Message[], toolUseId: string): unknown {
  for (const m of messages) {
    if (m.type !== 'user' || typeof m.message.content === 'string') continue;
    for (const b of m.message.content)
      if (b.type === 'tool_result' && b.tool_use_id === toolUseId) return b.content;
  }
  return undefined;
}

/** Throws when the history would be rejected: wrong first role, or a tool_use/tool_result apart. */
export function assertValidForApi(messages: readonly Message[]): void {
  const api = toApiMessages(messages);
  if (api[0]?.role !== 'user') throw new Error('the first message is not a user message');
  for (let i = 0; i < api.length; i++) {
    const m = api[i];
    if (!m || typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type !== 'tool_result') continue;
      const prev = api[i - 1];
      const ok =
        prev?.role === 'assistant' &&
        typeof prev.content !== 'string' &&
        prev.content.some((u) => u.type === 'tool_use' && u.id === b.tool_use_id);
      if (!ok) throw new Error(`tool_result ${b.tool_use_id} does not follow its tool_use`);
    }
  }
}

export const userText = (m: Message | undefined): string =>
  m?.type === 'user' && typeof m.message.content === 'string' ? m.message.content : '';

export type { UserMessage };
