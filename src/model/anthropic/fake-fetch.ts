/**
 * Test support: a `fetch` that answers the real SDK with scripted HTTP responses (SSE bodies,
 * error bodies, truncated or failing streams) and records every request it was given.
 */
import type { AnthropicFetch } from './client';

export type RecordedRequest = {
  url: string;
  method: string;
  headers: Headers;
  body: Record<string, unknown>;
};

export type SseEvent = { event: string; data: unknown };

/** What the fake server does for one request. */
export type Reply =
  | { kind: 'sse'; events: SseEvent[]; headers?: Record<string, string>; ending?: 'close' | 'hang' | Error }
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'text'; status: number; body: string; headers?: Record<string, string> }
  | { kind: 'network-error'; error: Error }
  /** Never answers; the request fails only when its signal aborts (the caller or a timeout). */
  | { kind: 'stall' };

export const REQUEST_ID = 'req_test_0123';

export function encodeSse(events: SseEvent[]): string {
  return events.map((e) => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`).join('');
}

/**
 * Replies are used in order; the last one repeats. An SSE reply's `ending` decides how its body
 * ends after the events: closed normally, left open until the request is aborted (a stalled
 * server), or failed with an error (a reset socket).
 */
export function fakeFetch(...replies: Reply[]): { fetch: AnthropicFetch; requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const fetch: AnthropicFetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const rawBody = typeof init?.body === 'string' ? init.body : '{}';
    requests.push({
      url,
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: JSON.parse(rawBody) as Record<string, unknown>,
    });
    const reply = replies[Math.min(requests.length - 1, replies.length - 1)];
    if (!reply) throw new Error('fakeFetch was given no replies');
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) throw abortError();
    switch (reply.kind) {
      case 'network-error':
        throw reply.error;
      case 'stall':
        return new Promise<Response>((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(abortError()), { once: true });
        });
      case 'json':
        return new Response(JSON.stringify(reply.body), {
          status: reply.status,
          headers: { 'content-type': 'application/json', 'request-id': REQUEST_ID, ...reply.headers },
        });
      case 'text':
        return new Response(reply.body, { status: reply.status, headers: { ...reply.headers } });
      case 'sse':
        return new Response(sseBody(reply.events, reply.ending ?? 'close', signal), {
          status: 200,
          headers: { 'content-type': 'text/event-stream', 'request-id': REQUEST_ID, ...reply.headers },
        });
    }
  };
  return { fetch, requests };
}

function sseBody(
  events: SseEvent[],
  ending: 'close' | 'hang' | Error,
  signal: AbortSignal | undefined,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const chunks = events.map((event) => encoder.encode(encodeSse([event])));
  let hanging = false;
  // Pull-based so that an error is raised only after the reader took every event before it
  // (erroring a stream discards whatever is still queued).
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks.shift();
      if (chunk) {
        controller.enqueue(chunk);
        return;
      }
      if (ending === 'close') controller.close();
      else if (ending instanceof Error) controller.error(ending);
      else if (!hanging) {
        hanging = true;
        signal?.addEventListener('abort', () => controller.error(abortError()), { once: true });
      }
    },
  });
}

function abortError(): Error {
  return new DOMException('This operation was aborted', 'AbortError');
}

/** An undici-style socket reset: `TypeError: terminated` caused by `other side closed`. */
export function socketReset(): Error {
  const cause = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
  return new TypeError('terminated', { cause });
}

/** The SSE events of a typical response around the given content events. */
export function messageEvents(
  content: SseEvent[],
  options: {
    stopReason?: string;
    stopSequence?: string | null;
    startUsage?: Record<string, number>;
    deltaUsage?: Record<string, number | null>;
  } = {},
): SseEvent[] {
  return [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: 'msg_01',
          type: 'message',
          role: 'assistant',
          model: 'claude-opus-5-5',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 1, ...options.startUsage },
        },
      },
    },
    { event: 'ping', data: { type: 'ping' } },
    ...content,
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: options.stopReason ?? 'end_turn', stop_sequence: options.stopSequence ?? null },
        usage: { output_tokens: 5, ...options.deltaUsage },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ];
}

export const blockStart = (index: number, contentBlock: Record<string, unknown>): SseEvent => ({
  event: 'content_block_start',
  data: { type: 'content_block_start', index, content_block: contentBlock },
});

export const blockDelta = (index: number, delta: Record<string, unknown>): SseEvent => ({
  event: 'content_block_delta',
  data: { type: 'content_block_delta', index, delta },
});

export const blockStop = (index: number): SseEvent => ({
  event: 'content_block_stop',
  data: { type: 'content_block_stop', index },
});
