/**
 * Stage 2 (off by default; settings `context.snip`): snip. Drops the oldest rounds of the live
 * conversation (after the pinned head: the last compaction's summary and attachments) and leaves
 * one marker in their place. A round is one assistant response with its tool results, or one user
 * prompt, so a tool_use never loses its tool_result. No model call: it is instant and free, and
 * what it drops is gone (compaction summarizes instead).
 *
 * Cache rule: snipping rewrites the start of the conversation, which invalidates the whole cached
 * prefix, so it cuts rarely and deep. By rounds: it waits until the history has grown half of
 * `keepTurns` past `keepTurns`, then cuts back to `keepTurns`. By tokens (`budget`): it waits until
 * the context reaches the trigger, then cuts until what stays fits the target — the next cut is
 * again the whole gap between target and trigger away. Either way the newest `keepTurns` rounds
 * always stay.
 *
 * The event records the cut as a context edit, so a resumed session sends what the snip left.
 */
import { type ContextEditSpan, contextEditMessage } from '../../session/context-edits';
import { createUserMessage, type Message, type SystemMessage } from '../../session/messages';
import { messagesTokens, pinnedPrefixLength, roundStarts, SNIP_MARKER_PREFIX } from './context-messages';

export type SnipOptions = { keepTurns: number };

/** The token mode: the context estimate now, when to cut, and what to cut down to. */
export type SnipBudget = { contextTokens: number; triggerTokens: number; targetTokens: number };

export { SNIP_MARKER_PREFIX };

function isSnipMarker(message: Message | undefined): boolean {
  return (
    message?.type === 'user' &&
    message.isMeta === true &&
    typeof message.message.content === 'string' &&
    message.message.content.startsWith(SNIP_MARKER_PREFIX)
  );
}

/** Where to cut in the token mode: the first round start that leaves the rest within the target. */
function cutForBudget(messages: readonly Message[], starts: number[], keep: number, budget: SnipBudget) {
  if (budget.contextTokens < budget.triggerTokens) return undefined;
  const last = starts.length - keep;
  let freed = 0;
  for (let k = 1; k <= last; k++) {
    freed += messagesTokens(messages, starts[k - 1], starts[k]);
    if (budget.contextTokens - freed <= budget.targetTokens) return starts[k] as number;
  }
  return last >= 1 ? (starts[last] as number) : undefined;
}

export function snipHistory(
  messages: Message[],
  options: SnipOptions,
  budget?: SnipBudget,
): { messages: Message[]; removed: number; event?: SystemMessage } {
  const keep = Math.max(1, Math.floor(options.keepTurns));
  const head = pinnedPrefixLength(messages);
  // A marker from an earlier snip is part of what the next snip replaces.
  const bodyStart = isSnipMarker(messages[head]) ? head + 1 : head;
  const starts = roundStarts(messages, bodyStart);
  let cut: number | undefined;
  if (budget) {
    cut = cutForBudget(messages, starts, keep, budget);
  } else if (starts.length >= keep + Math.max(1, Math.ceil(keep / 2))) {
    cut = starts[starts.length - keep];
  }
  if (cut === undefined || cut <= bodyStart) return { messages, removed: 0 };

  const dropped = messages.slice(bodyStart, cut).filter((m) => m.type !== 'system').length;
  const previous = bodyStart > head ? countIn(messages[head]) : 0;
  // The API wants a user message first; the marker also tells the model why the start is missing.
  const marker = createUserMessage(
    `${SNIP_MARKER_PREFIX} ${previous + dropped} older messages were dropped to keep the context small. ` +
      'Ask the user if you need something from them.]',
    { isMeta: true },
  );
  const span: ContextEditSpan = {
    removedUuids: messages.slice(head, cut).map((m) => m.uuid),
    replacement: marker,
  };
  const event = contextEditMessage('snip', `Snipped ${dropped} old messages from the context.`, [span]);
  return { messages: [...messages.slice(0, head), marker, ...messages.slice(cut)], removed: dropped, event };
}

function countIn(marker: Message | undefined): number {
  if (marker?.type !== 'user' || typeof marker.message.content !== 'string') return 0;
  const n = Number.parseInt(marker.message.content.slice(SNIP_MARKER_PREFIX.length), 10);
  return Number.isFinite(n) ? n : 0;
}
