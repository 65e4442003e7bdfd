/**
 * The fetch both providers hand their SDK: Node sockets with the connect deadline, wrapped in the
 * first-byte and between-chunks deadlines. Tests pass their own `base` fetch and keep the
 * deadlines around it.
 */
import { MAX_TIMER_MS, type TransportTimeouts } from './deadline';
import { createNodeFetch, type NodeFetchOptions } from './node-fetch';
import { type FetchLike, withDeadlines } from './timed-fetch';

export type { FetchLike };

/**
 * The SDKs' own request timer, switched off in effect: it only covers the wait for headers and
 * would cut a first-byte wait set longer than its default. The transport's deadlines own timing.
 */
export const SDK_TIMEOUT_OFF_MS = MAX_TIMER_MS;

/** The SDKs' fetch, and `preconnect` (see prepared-sockets.ts). */
export type Transport = FetchLike & {
  /** Opens the connection the next request to `baseUrl`'s origin will use; a no-op over a test's fetch. */
  preconnect(baseUrl: string): void;
};

export function createTransport(
  timeouts: TransportTimeouts,
  base?: FetchLike,
  hooks: Pick<NodeFetchOptions, 'beforeSend'> = {},
): Transport {
  const node = base ? undefined : createNodeFetch({ connectMs: timeouts.connectMs, ...hooks });
  const preconnect = (baseUrl: string) => {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      return; // The request reports the malformed URL.
    }
    node?.preconnect(url);
  };
  return Object.assign(withDeadlines(base ?? (node as FetchLike), timeouts), { preconnect });
}
