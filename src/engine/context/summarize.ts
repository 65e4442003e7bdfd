/**
 * The compaction model call: the conversation so far goes, as a side call of the session, to the
 * session's main model (only its window is sure to hold the whole conversation) with a short
 * system prompt of its own, and the reply is a summary the work can continue from. Its cost
 * counts in the session's like any other call.
 */
import { PromptTooLongError } from '../../model/errors';
import type { SideCallClient } from '../../model/side-call';
import type { MessageParam } from '../../model/types';
import type { Message } from '../../session/messages';
import { stripThinking, toApiMessages } from '../api-messages';

export const COMPACT_SYSTEM_PROMPT = `You summarize a conversation between a user and a coding agent so that the agent can continue the work from the summary alone; the original conversation will be discarded.

Keep every detail needed to continue:
1. The user's requests and intent, in their own words where it matters, including later changes of mind.
2. Decisions made and constraints agreed on, and why.
3. Files read, created or changed, with the important code, names and paths.
4. Errors met and how they were fixed, or that they are still open.
5. Commands and tests run and what they showed.
6. The current work: exactly what was being done just before this summary.
7. The next step, if one is clear, tied to the user's latest request.

Write plain text with short headed sections. Be specific (paths, identifiers, numbers); leave out pleasantries. Do not call tools.`;

/** The closing request of a compaction call; tests and mock scenarios can match on it. */
export const COMPACT_REQUEST = 'Summarize the conversation above as instructed. Write only the summary.';

/** How much of the history is dropped per retry when even the compaction call is too long. */
const DROP_SHARE = 0.3;
const MAX_ATTEMPTS = 3;

function withRequest(history: MessageParam[], instructions: string | undefined): MessageParam[] {
  const text = instructions?.trim()
    ? `${COMPACT_REQUEST}\n\nAdditional instructions from the user: ${instructions.trim()}`
    : COMPACT_REQUEST;
  const last = history[history.length - 1];
  if (last?.role !== 'user') return [...history, { role: 'user', content: text }];
  // Tool results must stay first in their user turn; the request goes after them.
  const content =
    typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
  return [...history.slice(0, -1), { role: 'user', content: [...content, { type: 'text', text }] }];
}

/** Drops the oldest share of the history at a user turn that holds no tool results. */
function dropOldest(history: MessageParam[]): MessageParam[] | undefined {
  for (let i = Math.max(1, Math.floor(history.length * DROP_SHARE)); i < history.length; i++) {
    const m = history[i] as MessageParam;
    const hasResult = typeof m.content !== 'string' && m.content.some((b) => b.type === 'tool_result');
    if (m.role === 'user' && !hasResult) return history.slice(i);
  }
  return undefined;
}

export async function summarizeConversation(input: {
  sideCalls: SideCallClient;
  model: string;
  messages: readonly Message[];
  instructions?: string;
  maxTokens: number;
  signal: AbortSignal;
}): Promise<string> {
  let history: MessageParam[] | undefined = toApiMessages(stripThinking(input.messages));
  for (let attempt = 1; ; attempt++) {
    try {
      const text = await callOnce(input, withRequest(history, input.instructions));
      if (text.trim() === '') throw new Error('the model returned an empty summary');
      return text.trim();
    } catch (error) {
      if (!(error instanceof PromptTooLongError) || attempt >= MAX_ATTEMPTS) throw error;
      history = dropOldest(history);
      if (!history) throw error;
    }
  }
}

async function callOnce(
  input: { sideCalls: SideCallClient; model: string; maxTokens: number; signal: AbortSignal },
  messages: MessageParam[],
): Promise<string> {
  const request = {
    purpose: 'compaction' as const,
    model: input.model,
    system: [{ text: COMPACT_SYSTEM_PROMPT }],
    messages,
    maxTokens: input.maxTokens,
  };
  return (await input.sideCalls.complete(request, input.signal)).text;
}
