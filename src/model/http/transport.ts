/**
 * The fetch both providers hand their SDK: Node sockets with the connect deadline, wrapped in the
 * first-byte and between-chunks deadlines. Tests pass their own `base` fetch and keep the
 * deadlines around it.
 */
import { MAX_TIMER_MS, type TransportTimeouts } from './deadline';
import { createNodeFetch } from './node-fetch';
import { type FetchLike, withDeadlines } from './timed-fetch';

export type { FetchLike };

/**
 * The SDKs' own request timer, switched off in effect: it only covers the wait for headers and
 * would cut a first-byte wait set longer than its default. The transport's deadlines own timing.
 */
export const SDK_TIMEOUT_OFF_MS = MAX_TIMER_MS;

export function createTransport(timeouts: TransportTimeouts, base?: FetchLike): FetchLike {
  return withDeadlines(base ?? createNodeFetch({ connectMs: timeouts.connectMs }), timeouts);
}
