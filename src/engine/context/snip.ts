/**
 * Stage 2 (off by default): snip. Drops the oldest rounds so that at most `keepTurns` rounds stay
 * after the pinned head (the last compaction's summary and attachments). A round is one assistant
 * response with its tool results, or one user prompt, so a tool_use never loses its tool_result.
 *
 * Cache rule: snipping rewrites the start of the conversation, which invalidates the whole cached
 * prefix. So it waits until the history has grown half a window past `keepTurns` and then cuts
 * back to `keepTurns` in one go; the next cut is again keepTurns/2 rounds away.
 */
import {
  createSystemMessage,
  createUserMessage,
  type Message,
  type SystemMessage,
} from '../../session/messages';
import { pinnedPrefixLength, roundStarts, SNIP_MARKER_PREFIX } from './context-messages';

export type SnipOptions = { keepTurns: number };

export { SNIP_MARKER_PREFIX };

function isSnipMarker(message: Message | undefined): boolean {
  return (
    message?.type === 'user' &&
    message.isMeta === true &&
    typeof message.message.content === 'string' &&
    message.message.content.startsWith(SNIP_MARKER_PREFIX)
  );
}

export function snipHistory(
  messages: Message[],
  options: SnipOptions,
): { messages: Message[]; removed: number; event?: SystemMessage } {
  const keep = Math.max(1, Math.floor(options.keepTurns));
  const head = pinnedPrefixLength(messages);
  // A marker from an earlier snip is part of what the next snip replaces.
  const bodyStart = isSnipMarker(messages[head]) ? head + 1 : head;
  const starts = roundStarts(messages, bodyStart);
  const slack = Math.max(1, Math.ceil(keep / 2));
  if (starts.length < keep + slack) return { messages, removed: 0 };

  const cut = starts[starts.length - keep] as number;
  const dropped = messages.slice(bodyStart, cut).filter((m) => m.type !== 'system').length;
  const previous = bodyStart > head ? countIn(messages[head]) : 0;
  const removed = previous + dropped;
  // The API wants a user message first; the marker also tells the model why the start is missing.
  const marker = createUserMessage(
    `${SNIP_MARKER_PREFIX} ${removed} older messages were dropped to keep the context small. ` +
      'Ask the user if you need something from them.]',
    { isMeta: true },
  );
  const event = createSystemMessage('informational', `Snipped ${dropped} old messages from the context.`, {
    data: {
      snip: { removedUuids: messages.slice(bodyStart, cut).map((m) => m.uuid), markerUuid: marker.uuid },
    },
  });
  return { messages: [...messages.slice(0, head), marker, ...messages.slice(cut)], removed: dropped, event };
}

function countIn(marker: Message | undefined): number {
  if (marker?.type !== 'user' || typeof marker.message.content !== 'string') return 0;
  const n = Number.parseInt(marker.message.content.slice(SNIP_MARKER_PREFIX.length), 10);
  return Number.isFinite(n) ? n : 0;
}
