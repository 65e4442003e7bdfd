/**
 * Stage 3: microcompact. Replaces the content of old tool results the model has already acted on
 * with a one-line stub; the tool_result block itself stays, so every tool_use keeps its answer.
 *
 * Cache rule: clearing a result changes the request from that point on, so the cached prefix
 * after it must be written again. Clearing one result per turn would pay that every turn. Instead:
 * 1. nothing happens while the estimated context is below `triggerTokens`;
 * 2. above it, the candidates are every uncleared, consumed tool result except the newest
 *    `keepRecent`; they are cleared all at once, and only when together they free at least
 *    `minClearTokens`.
 * So each cache break buys at least `minClearTokens`, and the next one cannot come before that many
 * new result tokens have aged past the newest `keepRecent` (and the context is over the trigger).
 */
import type { ToolResultBlock, UserContentBlock } from '../../model/types';
import type { Message, UserMessage } from '../../session/messages';
import { messageTokens, toolResultsOf, withContent } from './context-messages';
import type { ContentReplacementCallback } from './tool-result-budget';

export const CLEARED_TOOL_RESULT = '[Old tool result content cleared to save context]';

export type MicrocompactOptions = {
  triggerTokens: number;
  keepRecent: number;
  minClearTokens: number;
  onContentReplacement?: ContentReplacementCallback;
};

export function microcompact(
  messages: Message[],
  contextTokens: number,
  options: MicrocompactOptions,
): { messages: Message[]; freedTokens: number; cleared: number } {
  const none = { messages, freedTokens: 0, cleared: 0 };
  if (contextTokens < options.triggerTokens) return none;

  // Walk from the end: the newest results are kept; a result is consumed once a response follows.
  let seenResults = 0;
  let responseAfter = false;
  const targets: number[] = [];
  let gain = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as Message;
    if (m.type === 'assistant' && m.apiError === undefined) responseAfter = true;
    const results = toolResultsOf(m);
    if (results.length === 0) continue;
    const clearable = results.filter((b) => b.content !== CLEARED_TOOL_RESULT && !loadsTools(b));
    seenResults += results.length;
    if (!responseAfter || seenResults <= options.keepRecent || clearable.length === 0) continue;
    targets.push(i);
    const before = messageTokens(m);
    gain += before - messageTokens(clearedMessage(m as UserMessage));
  }
  if (targets.length === 0 || gain < options.minClearTokens) return none;

  const out = [...messages];
  for (const i of targets) {
    const m = out[i] as UserMessage;
    const next = clearedMessage(m);
    out[i] = next;
    options.onContentReplacement?.(m.uuid, next.message.content as UserContentBlock[]);
  }
  return { messages: out, freedTokens: gain, cleared: targets.length };
}

/**
 * A ToolSearch result: a few tokens of `tool_reference` blocks through which the Anthropic API
 * shows the loaded schemas (tools/deferral). Clearing it would take the schemas away with it.
 */
function loadsTools(block: ToolResultBlock): boolean {
  return Array.isArray(block.content) && block.content.some((inner) => inner.type === 'tool_reference');
}

// Process-wide on purpose: the cleared copy is a pure function of the (immutable) message it is
// keyed by, and a WeakMap lets an entry go with its message, whichever session held it.
const clearedCache = new WeakMap<UserMessage, UserMessage>();

function clearedMessage(m: UserMessage): UserMessage {
  const cached = clearedCache.get(m);
  if (cached) return cached;
  const content = (m.message.content as UserContentBlock[]).map((b) =>
    b.type === 'tool_result' && !loadsTools(b) ? { ...b, content: CLEARED_TOOL_RESULT } : b,
  );
  const cleared = withContent(m, content);
  clearedCache.set(m, cleared);
  return cleared;
}
