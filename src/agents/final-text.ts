/**
 * What a worker hands back: the text blocks of its last response, joined. A response arrives as
 * one message per block (all with the response's id), so every text block of that id counts.
 */
import type { AssistantMessage, Message } from '../session/messages';

export function finalTextOf(messages: readonly Message[]): string {
  let last: AssistantMessage | undefined;
  for (let i = messages.length - 1; i >= 0 && !last; i--) {
    const message = messages[i];
    if (message?.type === 'assistant' && message.apiError === undefined) last = message;
  }
  if (!last) return '';
  const id = last.message.id;
  const texts: string[] = [];
  for (const message of messages) {
    if (message.type !== 'assistant' || message.message.id !== id) continue;
    for (const block of message.message.content) if (block.type === 'text') texts.push(block.text);
  }
  return texts.join('\n').trim();
}
