/**
 * Makes a rebuilt history acceptable to the API again. A crash can cut a turn between a tool call
 * and its result, a `--resume-session-at` or a compaction can separate the two, and a different
 * model rejects thinking signatures it did not write; each repair here fixes one of those.
 */
import { getModelInfo, resolveModelAlias } from '../model/models';
import { createToolResultMessage, type Message, stripThinking } from './messages';

export const INTERRUPTED_TOOL_RESULT =
  'Interrupted: the session ended before this tool call finished, so it has no result. Check the state before relying on it.';

export type RepairReport = {
  messages: Message[];
  /** tool_use ids answered with a synthetic "interrupted" result. */
  synthesized: string[];
  /** tool_use ids of results removed because their call is not in the history. */
  droppedResults: string[];
};

/**
 * Every tool_use gets a tool_result in the user messages that follow its response (a synthetic
 * `is_error` one when the real one was never written), and a tool_result whose tool_use is not in
 * the history is removed. Both would make the API refuse the whole conversation.
 */
export function repairToolPairs(messages: readonly Message[]): RepairReport {
  const out: Message[] = [];
  let open: string[] = [];
  let inResponse = false;
  const synthesized: string[] = [];
  const droppedResults: string[] = [];

  const answerOpen = () => {
    for (const id of open) {
      out.push(
        createToolResultMessage({
          type: 'tool_result',
          tool_use_id: id,
          content: INTERRUPTED_TOOL_RESULT,
          is_error: true,
        }),
      );
      synthesized.push(id);
    }
    open = [];
  };

  for (const message of messages) {
    if (message.type === 'assistant' && message.apiError === undefined) {
      // A new response starts: whatever the previous one asked for and never got is answered now.
      if (!inResponse) answerOpen();
      inResponse = true;
      out.push(message);
      for (const block of message.message.content) {
        if (block.type !== 'tool_use') continue;
        open.push(block.id);
      }
      continue;
    }
    if (message.type !== 'user' || typeof message.message.content === 'string') {
      if (message.type === 'user') inResponse = false;
      out.push(message);
      continue;
    }
    inResponse = false;
    const content = message.message.content.filter((block) => {
      if (block.type !== 'tool_result') return true;
      const index = open.indexOf(block.tool_use_id);
      if (index >= 0) {
        open.splice(index, 1);
        return true;
      }
      droppedResults.push(block.tool_use_id);
      return false;
    });
    if (content.length === message.message.content.length) out.push(message);
    else if (content.length > 0) out.push({ ...message, message: { ...message.message, content } });
  }
  answerOpen();
  return { messages: out, synthesized, droppedResults };
}

function modelKey(model: string): string {
  return getModelInfo(model)?.id ?? resolveModelAlias(model);
}

/**
 * Drops thinking blocks written by another model than `model`: their signatures are bound to the
 * model that produced them. Messages from the same model keep their thinking (and the cache).
 */
export function stripForeignThinking(messages: readonly Message[], model: string): Message[] {
  const target = modelKey(model);
  return stripThinking(messages, (message) => modelKey(message.message.model) === target);
}
