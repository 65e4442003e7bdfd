/**
 * A worker's usage as its messages show it, for its task frames: each model response's tokens
 * once (a response arrives as one message per block, each carrying the response's usage), and
 * the tools it called.
 */
import type { Message } from '../session/messages';

export type WorkerTally = { tokens: number; toolUses: number; countedResponses: Set<string> };

export const emptyTally = (): WorkerTally => ({ tokens: 0, toolUses: 0, countedResponses: new Set() });

/** Counts `message` into `tally`; returns the name of the last tool it calls, when it calls any. */
export function tallyMessage(tally: WorkerTally, message: Message): string | undefined {
  if (message.type !== 'assistant') return undefined;
  const response = message.message;
  if (!tally.countedResponses.has(response.id)) {
    tally.countedResponses.add(response.id);
    const u = response.usage;
    tally.tokens += u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens + u.outputTokens;
  }
  const calls = response.content.filter((block) => block.type === 'tool_use');
  tally.toolUses += calls.length;
  return calls.at(-1)?.name;
}
