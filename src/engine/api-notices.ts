/**
 * What the user is told while the model API misbehaves: a line per retry (what failed, when the
 * next try is), with the details behind it for `--debug`, and a line when the session switches
 * to the fallback model. The engine hands these to its notification sink; headless, that is
 * stderr, so stdout keeps only the answer or the protocol.
 */
import { formatDuration } from '../model/http/deadline';
import { SIDE_CALL_LABELS, type SideCallRetry } from '../model/side-call';
import type { RetryEvent } from '../model/types';
import type { SystemMessage } from '../session/messages';
import type { ToolNotification } from '../tools/context';
import type { QueryEvent } from './query-types';

/** The notices one loop event calls for (most call for none). */
export function apiNotices(event: QueryEvent): ToolNotification[] {
  if (event.type === 'stream_event' && event.event.type === 'retry') return retryNotices(event.event);
  if (event.type === 'message' && event.message.type === 'system') {
    const notice = fallbackNotice(event.message);
    return notice ? [notice] : [];
  }
  return [];
}

export function retryNotices(event: RetryEvent): ToolNotification[] {
  const { error } = event;
  const line =
    `API request failed: ${error.describe()}; retrying in ${formatDuration(event.delayMs)} ` +
    `(retry ${event.attempt} of ${event.maxRetries})`;
  const details = [`retry ${event.attempt}/${event.maxRetries} after ${error.name}`];
  if (error.status !== undefined) details.push(`HTTP ${error.status}`);
  if (error.requestId) details.push(`request ${error.requestId}`);
  if (event.noResponse) {
    details.push(
      `waited ${formatDuration(event.noResponse.waitedMs)} for a first byte; the retry waits ` +
        formatDuration(event.noResponse.retryWaitMs),
    );
  }
  details.push(`causes: ${causeChain(error)}`);
  return [
    { level: 'warning', message: line },
    { level: 'info', message: details.join('; ') },
  ];
}

/**
 * The notices of a side call's retry (a compaction summary, WebFetch, the classifier): the same
 * lines, led by what the call was for, so the user can tell it from the conversation's own.
 */
export function sideCallRetryNotices({ purpose, event }: SideCallRetry): ToolNotification[] {
  const label = SIDE_CALL_LABELS[purpose];
  const lead = label.charAt(0).toUpperCase() + label.slice(1);
  return retryNotices(event).map((notice) => ({ ...notice, message: `${lead}: ${notice.message}` }));
}

/** The notice for a switch to the fallback model, or undefined for any other system message. */
export function fallbackNotice(message: SystemMessage): ToolNotification | undefined {
  if (message.subtype !== 'model_fallback') return undefined;
  return { level: 'warning', message: message.content };
}

/** "ConnectionError: … ← APIConnectionError: … ← TransportDeadlineError: …" */
function causeChain(error: Error): string {
  const parts: string[] = [];
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 6; depth++) {
    const code = (current as { code?: unknown }).code;
    parts.push(`${current.name}${typeof code === 'string' ? ` [${code}]` : ''}: ${current.message}`);
    current = current.cause;
  }
  return parts.join(' ← ');
}
