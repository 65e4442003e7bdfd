/**
 * The conversation as Yoke keeps it: every entry has a uuid and a timestamp so transcripts can be
 * written append-only and resumed at any message. The `message` payloads are the model layer's
 * Anthropic-shaped params, so converting to an API request is a projection, not a translation.
 */
import { randomUUID } from 'node:crypto';
import type {
  AssistantContentBlock,
  StopReason,
  ToolResultBlock,
  Usage,
  UserContentBlock,
  UserMessageParam,
} from '../model/types';

export type UserMessage = {
  type: 'user';
  uuid: string;
  timestamp: string;
  message: UserMessageParam;
  /** Injected by Yoke (reminders, recovery nudges), not typed by the user. */
  isMeta?: boolean;
  /** For tool results: the structured output of the tool, as `tool_use_result` on the wire. */
  toolUseResult?: unknown;
  /** The user's own message id from the SDK (`uuid` on stdin), echoed on replies. */
  clientUuid?: string;
};

export type AssistantMessage = {
  type: 'assistant';
  uuid: string;
  timestamp: string;
  message: {
    id: string;
    model: string;
    role: 'assistant';
    content: AssistantContentBlock[];
    stop_reason: StopReason | null;
    stop_sequence: string | null;
    usage: Usage;
  };
  requestId?: string;
  /** The stream was cut by an interrupt; content is what had arrived. */
  aborted?: boolean;
  /** A synthetic message that reports an API error to the user instead of model output. */
  apiError?: string;
};

export type SystemMessageSubtype =
  | 'informational'
  | 'model_fallback'
  | 'api_retry'
  | 'compact_boundary'
  | 'stop_hook_feedback'
  | 'warning';

export type SystemMessage = {
  type: 'system';
  uuid: string;
  timestamp: string;
  subtype: SystemMessageSubtype;
  content: string;
  level?: 'info' | 'warning' | 'error';
  /** Subtype-specific structured data (e.g. compact metadata, retry attempt). */
  data?: Record<string, unknown>;
};

export type Message = UserMessage | AssistantMessage | SystemMessage;

const now = () => new Date().toISOString();

export function createUserMessage(
  content: string | UserContentBlock[],
  extra: Partial<Omit<UserMessage, 'type' | 'message'>> = {},
): UserMessage {
  return { type: 'user', uuid: randomUUID(), timestamp: now(), message: { role: 'user', content }, ...extra };
}

export function createToolResultMessage(block: ToolResultBlock, toolUseResult?: unknown): UserMessage {
  return createUserMessage([block], toolUseResult === undefined ? {} : { toolUseResult });
}

export function createSystemMessage(
  subtype: SystemMessageSubtype,
  content: string,
  extra: Partial<Pick<SystemMessage, 'level' | 'data'>> = {},
): SystemMessage {
  return { type: 'system', uuid: randomUUID(), timestamp: now(), subtype, content, ...extra };
}

/** The text of a message's text blocks joined, for display and matching. */
export function messageText(message: UserMessage | AssistantMessage): string {
  const content = message.message.content;
  if (typeof content === 'string') return content;
  return content
    .filter((b): b is { type: 'text'; text: string } => b.type === 'text')
    .map((b) => b.text)
    .join('');
}

/** The text of the latest prompt a person typed (not tool results, not Yoke's own meta messages). */
export function lastUserPromptText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.type !== 'user' || m.isMeta || m.toolUseResult !== undefined) continue;
    const content = m.message.content;
    if (typeof content === 'string') return content;
    const text = content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
    if (text) return text;
  }
  return '';
}

function isThinking(block: { type: string }): boolean {
  return block.type === 'thinking' || block.type === 'redacted_thinking';
}

/**
 * Drops thinking and redacted_thinking blocks: their signatures are bound to the model that wrote
 * them, so another model rejects a history that still carries them. `keep` spares the messages
 * whose thinking may stay (e.g. those written by the model about to read them). Messages left
 * without content are removed; messages without thinking are kept as the same objects.
 */
export function stripThinking(
  messages: readonly Message[],
  keep: (message: AssistantMessage) => boolean = () => false,
): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    if (message.type !== 'assistant' || keep(message) || !message.message.content.some(isThinking)) {
      out.push(message);
      continue;
    }
    const content = message.message.content.filter((block) => !isThinking(block));
    if (content.length > 0) out.push({ ...message, message: { ...message.message, content } });
  }
  return out;
}
