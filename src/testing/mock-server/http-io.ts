/**
 * Low-level response writing for the mock server: JSON bodies, SSE streams with per-event delay,
 * and a deliberate mid-stream disconnect. Every wait honours the request's abort signal so that
 * a client hanging up (or the server closing) ends the handler at once.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OutgoingEvent } from './anthropic-wire';

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Resolves after `ms`, or as soon as `signal` aborts (the caller checks `signal.aborted`). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Resolves once `signal` aborts: the client hung up or the server is closing. */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** A small web page, as a proxy or captive portal sends where the API should answer. */
export function sendHtml(
  res: ServerResponse,
  status: number,
  title: string,
  headers: Record<string, string>,
): void {
  const escaped = title.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c] ?? c);
  const page = `<!DOCTYPE html>\n<html><head><title>${escaped}</title></head>\n<body><h1>${escaped}</h1><form><input name="user"></form></body></html>\n`;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(page),
    ...headers,
  });
  res.end(page);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function formatSseEvent(event: OutgoingEvent): string {
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  return `${event.event ? `event: ${event.event}\n` : ''}data: ${data}\n\n`;
}

function write(res: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    res.write(text, () => resolve());
  });
}

export type StreamOptions = {
  headers: Record<string, string>;
  delayMs: number;
  /** Destroy the socket after this many events instead of ending the response. */
  disconnectAfter?: number;
  /** Stop after this many events and keep the connection open, sending nothing more. */
  stallAfter?: number;
  signal: AbortSignal;
};

export async function sendSse(
  res: ServerResponse,
  events: OutgoingEvent[],
  options: StreamOptions,
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...options.headers,
  });
  res.flushHeaders();
  const limit = options.disconnectAfter ?? options.stallAfter ?? events.length;
  for (const event of events.slice(0, limit)) {
    await sleep(options.delayMs, options.signal);
    if (options.signal.aborted || res.destroyed) return;
    // Waiting for each write to flush makes a following disconnect deterministic: the client
    // has received exactly `limit` events when the socket goes away.
    await write(res, formatSseEvent(event));
  }
  if (options.disconnectAfter !== undefined) {
    res.socket?.destroy();
    return;
  }
  if (options.stallAfter !== undefined) {
    await untilAborted(options.signal);
    return;
  }
  res.end();
}
