/**
 * The status line's context figure for a conversation a session resumed, before its first turn:
 * what the last request filled (its reported usage), as the line shows after every turn. A
 * compaction after that request left less than it filled, by an amount nothing reported: unknown
 * (0) until the next turn, as for a new conversation.
 */
import type { Message } from '../../session/messages';

export function resumedContextTokens(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Message;
    if (message.type === 'system' && message.subtype === 'compact_boundary') return 0;
    if (message.type !== 'assistant' || message.apiError !== undefined) continue;
    const usage = message.message.usage;
    const filled =
      usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens + usage.outputTokens;
    if (filled > 0) return filled;
  }
  return 0;
}
