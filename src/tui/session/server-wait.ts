/**
 * Whether the running turn waits for the model server's first answer: from the turn's start, and
 * again from each tool round's results (the next request goes out then), until the answer's first
 * stream event or its message. The spinner says so after a few seconds: a local server loading a
 * model may take minutes before its first byte (Yoke waits up to 10 minutes for one), and
 * "Working…" alone, with no token moving, read as a hung Yoke rather than a busy server.
 * One per session, fed the turn's messages.
 */
import type { SDKMessage } from '../../engine/sdk-messages';

/** How long a wait goes unmentioned: a usual first byte comes well within it. */
export const SERVER_WAIT_SHOWN_AFTER_MS = 5_000;

export class ServerWait {
  private since: number | undefined;

  /** A turn started: its first request is on its way. */
  started(now: number = Date.now()): void {
    this.since = now;
  }

  /** A message of the running turn (the main agent's only: a subagent's requests are its own). */
  observe(message: SDKMessage, now: number = Date.now()): void {
    if (!('parent_tool_use_id' in message) || message.parent_tool_use_id !== null) return;
    if (message.type === 'stream_event' || message.type === 'assistant') this.since = undefined;
    else if (message.type === 'user' && !message.isReplay && hasToolResult(message.message.content))
      this.since = now;
  }

  ended(): void {
    this.since = undefined;
  }

  /** Since when the server has not answered, once that is worth saying; else undefined. */
  waitingSince(now: number = Date.now()): number | undefined {
    return this.since !== undefined && now - this.since >= SERVER_WAIT_SHOWN_AFTER_MS
      ? this.since
      : undefined;
  }
}

function hasToolResult(content: unknown): boolean {
  return (
    Array.isArray(content) && content.some((block) => (block as { type?: unknown })?.type === 'tool_result')
  );
}
