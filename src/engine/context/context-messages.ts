/**
 * Small helpers the pipeline stages share: per-message token estimates (memoized per message
 * object, so a 500-turn history costs map look-ups, not re-tokenizing), tool-result access, and
 * the points where history may be cut without separating a tool_use from its tool_result.
 */
import { estimateBlockTokens, estimateTextTokens, MESSAGE_OVERHEAD_TOKENS } from '../../model/tokens';
import type { ToolResultBlock, UserContentBlock } from '../../model/types';
import type { AssistantMessage, Message, UserMessage } from '../../session/messages';

/** Opens the note a snip leaves where it cut; the note is live history, not pinned. */
export const SNIP_MARKER_PREFIX = '[Earlier conversation removed:';
/** Opens a collapse note. */
export const COLLAPSE_PREFIX = '[Earlier tool activity, summarized]';

function isStageNote(m: Message): boolean {
  if (m.type !== 'user' || typeof m.message.content !== 'string') return false;
  return m.message.content.startsWith(SNIP_MARKER_PREFIX) || m.message.content.startsWith(COLLAPSE_PREFIX);
}

// Process-wide on purpose: a message's estimate is a pure function of the (immutable) message it
// is keyed by; entries go with their messages.
const tokenCache = new WeakMap<Message, number>();

/** Estimated tokens a message adds to a request; 0 for what never reaches the model. */
export function messageTokens(message: Message): number {
  const cached = tokenCache.get(message);
  if (cached !== undefined) return cached;
  let tokens = 0;
  if (message.type === 'user' || (message.type === 'assistant' && message.apiError === undefined)) {
    const content = message.message.content as
      | string
      | Array<UserContentBlock | AssistantMessage['message']['content'][number]>;
    tokens = MESSAGE_OVERHEAD_TOKENS;
    if (typeof content === 'string') tokens += estimateTextTokens(content);
    else for (const block of content) tokens += estimateBlockTokens(block);
  }
  tokenCache.set(message, tokens);
  return tokens;
}

export function messagesTokens(messages: readonly Message[], from = 0, to = messages.length): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += messageTokens(messages[i] as Message);
  return sum;
}

/** The tool_result blocks of a user message (none for anything else). */
export function toolResultsOf(message: Message): ToolResultBlock[] {
  if (message.type !== 'user' || typeof message.message.content === 'string') return [];
  return message.message.content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
}

export function isToolResultMessage(message: Message): message is UserMessage {
  return toolResultsOf(message).length > 0;
}

/** A copy of a user message with new content and the same identity (uuid, timestamp). */
export function withContent(message: UserMessage, content: UserContentBlock[]): UserMessage {
  return { ...message, message: { ...message.message, content } };
}

/**
 * Indices where a new round starts: a user message that is not a tool result, or an assistant
 * message opening a new response. Cutting history just before such an index never separates a
 * tool_use from its tool_result, because results always follow their call before the next round.
 */
export function roundStarts(messages: readonly Message[], from = 0): number[] {
  const starts: number[] = [];
  let lastAssistantId: string | undefined;
  for (let i = from; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (m.type === 'system') continue;
    if (m.type === 'assistant') {
      if (m.apiError !== undefined) continue;
      if (m.message.id !== lastAssistantId) starts.push(i);
      lastAssistantId = m.message.id;
    } else if (!isToolResultMessage(m)) {
      starts.push(i);
      lastAssistantId = undefined;
    }
  }
  return starts;
}

/**
 * Where the live conversation starts: just after the last compact boundary and the summary and
 * attachments that follow it. Stages that drop or fold old messages leave that head alone.
 */
export function pinnedPrefixLength(messages: readonly Message[]): number {
  let boundary = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as Message;
    if (m.type === 'system' && m.subtype === 'compact_boundary') {
      boundary = i;
      break;
    }
  }
  if (boundary < 0) return 0;
  let end = boundary + 1;
  while (end < messages.length) {
    const m = messages[end] as Message;
    if (m.type !== 'user' || !m.isMeta || isStageNote(m)) break;
    end++;
  }
  return end;
}
