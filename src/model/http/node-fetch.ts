/**
 * A fetch for the model APIs on node:http / node:https, because the connection wait must be a
 * setting: Node's built-in fetch fixes its connect timeout and offers no way to change it without
 * the undici package. It speaks what the SDKs need — a request with a body, the response headers
 * and a streamed body — and nothing more: no redirects (an API base URL that redirects is a
 * configuration error the caller reports), no cookies, no proxies (Node's fetch has none either).
 */
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { ConnectionClosedError, TransportDeadlineError, timerDelay } from './deadline';
import { type PreparedAgent, type PreparedSocketTimes, preparedAgent } from './prepared-sockets';
import { requestParts } from './request-parts';
import { announceRequestSent } from './request-sent';
import type { FetchLike } from './timed-fetch';

type Protocol = 'http:' | 'https:';

export type NodeFetchOptions = {
  connectMs: number;
  /**
   * Awaited before each request is sent (the REPL lets typed keys in here): the SDK builds a
   * request and the transport sends it in one stretch of main-thread work, and the first of a
   * process, cold, is long enough for a keystroke waiting behind it to echo late.
   */
  beforeSend?: () => Promise<void>;
  /** How long a preconnected socket may wait, and how often it is renewed (tests shorten them). */
  preparedSockets?: PreparedSocketTimes;
};

/** How a request to one protocol is sent: node:http's or node:https's `request`, and the agent. */
type Sender = {
  request: (url: URL, options: RequestOptions) => ClientRequest;
  agent: PreparedAgent;
};

/** The fetch, and a way to open the connection its next request to an origin will use. */
export type NodeFetch = FetchLike & { preconnect(url: URL): void };

export function createNodeFetch(options: NodeFetchOptions): NodeFetch {
  const modules = {
    'http:': () => import('node:http'),
    'https:': () => import('node:https'),
  };
  // Kept once made: the bundle's import() of a built-in copies the module's every export into
  // a new object each time (~1 ms of each request's start, while the user may be typing).
  const senders = new Map<Protocol, Promise<Sender>>();

  function agentFor(protocol: Protocol) {
    let sender = senders.get(protocol);
    if (!sender) {
      sender = modules[protocol]().then((mod) => ({
        request: mod.request,
        agent: preparedAgent(mod.Agent, options.preparedSockets),
      }));
      senders.set(protocol, sender);
    }
    return sender;
  }

  const preconnect = (url: URL) => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
    const protocol: Protocol = url.protocol;
    // As node:http names the host: an IPv6 literal without its brackets.
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(url.port) || (protocol === 'https:' ? 443 : 80);
    void agentFor(protocol).then(({ agent }) => agent.prepare(host, port));
  };

  const fetch: FetchLike = async (input, init) => {
    await options.beforeSend?.();
    const { url, method, headers, body } = await requestParts(input, init);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new TypeError(`unsupported protocol ${url.protocol} in ${url.href}`);
    }
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) throw abortReason(signal);
    if (body) headers['content-length'] = String(body.length);
    const { request: send, agent } = await agentFor(url.protocol);
    const requestOptions: RequestOptions = { method, headers, agent };
    const connect = { ms: options.connectMs, secure: url.protocol === 'https:', agent };
    // A kept-alive socket the server closed at the same moment fails before any answer; Node's
    // documented remedy is to send once more on a fresh socket.
    try {
      return await exchange(() => send(url, requestOptions), body, signal, connect);
    } catch (error) {
      if (!(error instanceof StaleSocketError)) throw error;
      return exchange(() => send(url, requestOptions), body, signal, connect);
    }
  };
  return Object.assign(fetch, { preconnect });
}

class StaleSocketError extends Error {}

function exchange(
  open: () => ClientRequest,
  body: Buffer | undefined,
  signal: AbortSignal | undefined,
  connect: { ms: number; secure: boolean; agent: PreparedAgent },
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    // The signal may have fired while the body was read or the module loaded.
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const req = open();
    let connectTimer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => req.destroy(abortReason(signal as AbortSignal));
    signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => {
      clearTimeout(connectTimer);
      signal?.removeEventListener('abort', onAbort);
    };

    req.once('socket', (socket) => {
      if (!socket.connecting) return;
      connectTimer = setTimeout(
        () => req.destroy(new TransportDeadlineError('connect', connect.ms)),
        timerDelay(connect.ms),
      );
      // TLS counts as part of connecting: a handshake that never completes is the same failure.
      socket.once(connect.secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    req.once('error', (error) => {
      cleanup();
      // A prepared socket idle since the start is as stale as a kept-alive one.
      const wasIdle = req.reusedSocket || connect.agent.wasPrepared(req.socket);
      reject(wasIdle && isReset(error) ? new StaleSocketError(error.message) : error);
    });
    req.once('response', (res) => {
      clearTimeout(connectTimer);
      resolve(toResponse(res, signal, () => signal?.removeEventListener('abort', onAbort)));
    });
    req.end(body, announceRequestSent);
  });
}

function isReset(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}

function toResponse(res: IncomingMessage, signal: AbortSignal | undefined, done: () => void): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    headers.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
  }
  const status = res.statusCode ?? 0;
  const init = { status, statusText: res.statusMessage ?? '', headers };
  if (status === 204 || status === 205 || status === 304) {
    res.resume();
    res.once('end', done);
    return new Response(null, init);
  }
  // Set when the reader cancels. Node may still deliver a chunk or the end it had already read;
  // passing those to the cancelled stream would throw outside any caller (an uncaught exception).
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(stream) {
      res.on('data', (chunk: Buffer) => {
        if (cancelled) return;
        stream.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((stream.desiredSize ?? 0) <= 0) res.pause();
      });
      res.once('end', () => {
        done();
        if (!cancelled) stream.close();
      });
      res.once('error', (error) => {
        done();
        if (cancelled) return;
        // An abort destroys the response with the signal's reason; report that, not "aborted".
        stream.error(signal?.aborted ? abortReason(signal) : error);
      });
      res.once('close', () => {
        if (!res.complete) {
          done();
          try {
            stream.error(signal?.aborted ? abortReason(signal) : new ConnectionClosedError());
          } catch {
            // Already closed or errored.
          }
        }
      });
    },
    pull() {
      res.resume();
    },
    cancel() {
      cancelled = true;
      done();
      res.destroy();
    },
  });
  return new Response(body, init);
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
}
