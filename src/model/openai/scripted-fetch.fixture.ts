/**
 * Test fixture: a `fetch` that answers Chat Completions requests with hand-written SSE streams or
 * error responses, so the real OpenAI SDK runs end to end without a network.
 */
import type { ModelRequest, StreamEvent } from '../types';
import { OpenAIProvider, type OpenAIProviderOptions } from './provider';

export type ChunkInit = {
  content?: string;
  reasoning_content?: string;
  reasoning?: string;
  refusal?: string;
  tool_calls?: Array<{
    index: number;
    id?: string;
    type?: 'function';
    function?: { name?: string; arguments?: string };
  }>;
  finish_reason?: string | null;
};

/** One SSE chunk in the shape servers send. */
export function chunk(init: ChunkInit, id = 'chatcmpl-1'): Record<string, unknown> {
  const { finish_reason = null, ...delta } = init;
  return {
    id,
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-test',
    choices: [{ index: 0, delta, finish_reason }],
  };
}

export function usageChunk(prompt: number, completion: number, cached?: number): Record<string, unknown> {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-test',
    choices: [],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      ...(cached !== undefined ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
    },
  };
}

export type Reply =
  | {
      kind: 'sse';
      chunks: Array<Record<string, unknown>>;
      /** Send `data: [DONE]` after the chunks (default true). */
      done?: boolean;
      /** After the chunks: error the body like a dropped socket, or hang until aborted. */
      ending?: 'disconnect' | 'hang';
      headers?: Record<string, string>;
    }
  | { kind: 'error'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'network'; error: Error }
  /** No response headers ever arrive; the request only ends when its signal aborts. */
  | { kind: 'stall' };

export type Recorded = { url: string; body: Record<string, unknown>; headers: Headers };

export function scriptedFetch(reply: Reply): { fetch: typeof globalThis.fetch; requests: Recorded[] } {
  const requests: Recorded[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    requests.push({
      url: String(input),
      body: JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>,
      headers: new Headers(init?.headers),
    });
    if (reply.kind === 'network') throw reply.error;
    if (reply.kind === 'stall') {
      return new Promise<Response>((_, reject) => {
        signal?.addEventListener('abort', () =>
          reject(new DOMException('The operation was aborted.', 'AbortError')),
        );
      });
    }
    if (reply.kind === 'error') {
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      return new Response(text, {
        status: reply.status,
        headers: { 'content-type': 'application/json', 'x-request-id': 'req_err', ...reply.headers },
      });
    }
    return new Response(sseBody(reply, signal), {
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req_123', ...reply.headers },
    });
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

function sseBody(
  reply: Extract<Reply, { kind: 'sse' }>,
  signal: AbortSignal | undefined,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const lines = reply.chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`);
  if (reply.ending === undefined && reply.done !== false) lines.push('data: [DONE]\n\n');
  let next = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      // Like a real fetch body: aborting the request errors the stream.
      signal?.addEventListener('abort', () => {
        try {
          controller.error(new DOMException('The operation was aborted.', 'AbortError'));
        } catch {
          // Already closed: nothing left to abort.
        }
      });
    },
    pull(controller) {
      const line = lines[next++];
      if (line !== undefined) {
        controller.enqueue(encoder.encode(line));
        return;
      }
      if (reply.ending === 'disconnect') controller.error(new TypeError('terminated'));
      else if (reply.ending === 'hang') return new Promise<void>(() => {});
      else controller.close();
    },
  });
}

export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'gpt-test',
    system: [{ text: 'You are terse.' }],
    messages: [{ role: 'user', content: 'hi' }],
    maxTokens: 1000,
    ...overrides,
  };
}

/** Runs one request through a provider backed by `reply`; returns the events and any error. */
export async function run(
  reply: Reply,
  options: { request?: ModelRequest; provider?: Partial<OpenAIProviderOptions>; signal?: AbortSignal } = {},
): Promise<{ events: StreamEvent[]; error: unknown; requests: Recorded[] }> {
  const { fetch, requests } = scriptedFetch(reply);
  const provider = new OpenAIProvider({ apiKey: 'sk-test', fetch, ...options.provider });
  const events: StreamEvent[] = [];
  let error: unknown;
  try {
    for await (const event of provider.stream(options.request ?? request(), options.signal))
      events.push(event);
  } catch (err) {
    error = err;
  }
  return { events, error, requests };
}
