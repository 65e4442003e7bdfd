/**
 * One failure policy for both wires: the same fault, put on the Anthropic Messages wire and on the
 * OpenAI-compatible chat wire by the mock model server (or, for what no server sends, by the
 * transport beneath the SDK), becomes the same error class and is retried, or not, the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../testing/closed-port';
import { type MockServer, type ScenarioInput, startMockServer } from '../testing/mock-server';
import { AnthropicProvider } from './anthropic';
import type { FetchLike } from './http/transport';
import { OpenAIProvider } from './openai';
import { withRetry } from './retry';
import type { ModelRequest, Provider, StreamEvent } from './types';

type Wire = 'anthropic' | 'openai';
const WIRES: Wire[] = ['anthropic', 'openai'];

const request: ModelRequest = {
  model: 'claude-wire-test',
  system: [{ text: 'Answer briefly.' }],
  messages: [{ role: 'user', content: 'Say something.' }],
  maxTokens: 64,
};

const RECOVERED = { reply: { content: [{ type: 'text' as const, text: 'Recovered after the fault.' }] } };

type Fault = NonNullable<Extract<ScenarioInput, unknown[]>[number]['fault']>;

/** What the policy must make of a fault: the error class, whether it is retried, and mid-stream. */
type Case = {
  name: string;
  fault: Fault;
  error: string;
  retried: boolean;
  /** The failed attempt had already streamed: the retry starts with `stream_reset`. */
  reset?: boolean;
};

const CASES: Case[] = [
  {
    name: 'a malformed chunk mid-stream',
    fault: { type: 'malformed_chunk', afterEvents: 3 },
    error: 'ConnectionError',
    retried: true,
    reset: true,
  },
  {
    name: 'a malformed first chunk',
    fault: { type: 'malformed_chunk', afterEvents: 0 },
    error: 'ConnectionError',
    retried: true,
  },
  {
    name: 'a connection dropped mid-stream',
    fault: { type: 'disconnect', afterEvents: 3 },
    error: 'ConnectionError',
    retried: true,
    reset: true,
  },
  {
    name: 'an error event of a type nobody knows',
    fault: { type: 'stream_error', errorType: 'mystery_error' },
    error: 'ServerError',
    retried: true,
    reset: true,
  },
  {
    name: 'an overloaded error event',
    fault: { type: 'stream_error', errorType: 'overloaded_error' },
    error: 'OverloadedError',
    retried: true,
    reset: true,
  },
  {
    name: 'a rate-limit error event',
    fault: { type: 'stream_error', errorType: 'rate_limit_error' },
    error: 'RateLimitError',
    retried: true,
    reset: true,
  },
  {
    name: 'an invalid-request error event',
    fault: { type: 'stream_error', errorType: 'invalid_request_error' },
    error: 'InvalidRequestError',
    retried: false,
  },
  {
    name: 'an HTTP status nobody expects (418)',
    fault: { type: 'http', status: 418 },
    error: 'InvalidRequestError',
    retried: false,
  },
  // A server that timed out waiting for the request (Node's headersTimeout on a connection opened
  // ahead, then idle): as both SDKs' own retry policies do, tried again.
  { name: 'HTTP 408', fault: 408, error: 'ConnectionError', retried: true },
  { name: 'HTTP 500', fault: 500, error: 'ServerError', retried: true },
  {
    name: 'HTTP 503 saying it is overloaded',
    fault: { type: 'http', status: 503, message: 'The engine is currently overloaded' },
    error: 'OverloadedError',
    retried: true,
  },
  { name: 'HTTP 503', fault: 503, error: 'ServerError', retried: true },
  { name: 'HTTP 529', fault: { type: 'overloaded' }, error: 'OverloadedError', retried: true },
  { name: 'HTTP 429', fault: 429, error: 'RateLimitError', retried: true },
  { name: 'HTTP 401', fault: 401, error: 'AuthError', retried: false },
  {
    name: 'HTTP 413',
    fault: { type: 'prompt_too_long', status: 413, actualTokens: 9000, limitTokens: 8000 },
    error: 'PromptTooLongError',
    retried: false,
  },
  {
    name: 'a prompt-too-long 400',
    fault: { type: 'prompt_too_long', actualTokens: 9000, limitTokens: 8000 },
    error: 'PromptTooLongError',
    retried: false,
  },
  { name: 'an unknown model', fault: { type: 'unknown_model' }, error: 'ModelNotFoundError', retried: false },
  {
    name: 'a web page instead of the API',
    fault: { type: 'html_page' },
    error: 'InvalidResponseError',
    retried: false,
  },
];

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
});
afterAll(async () => {
  await server.close();
});

function providerFor(wire: Wire, baseUrl: string, fetch?: FetchLike): Provider {
  const options = { apiKey: 'sk-wire-test', ...(fetch ? { fetch } : {}) };
  return wire === 'anthropic'
    ? new AnthropicProvider({ ...options, baseURL: baseUrl })
    : new OpenAIProvider({ ...options, baseURL: `${baseUrl}/v1` });
}

/** One retry at most, and no real waiting between tries. */
const retrying = (provider: Provider) =>
  withRetry(provider, { maxRetries: 1, clock: { sleep: async () => {}, random: () => 0 } });

type Outcome = { error: string; retryable: boolean; retried: boolean; reset: boolean; text: string };

async function outcome(provider: Provider): Promise<Outcome> {
  const events: StreamEvent[] = [];
  let thrown: unknown;
  try {
    for await (const event of retrying(provider).stream(request)) events.push(event);
  } catch (error) {
    thrown = error;
  }
  const retry = events.find((event) => event.type === 'retry');
  const error = (retry?.type === 'retry' ? retry.error : thrown) as Error & { retryable?: boolean };
  const text = events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : [])).join('');
  return {
    error: error?.name ?? 'none',
    retryable: error?.retryable ?? false,
    retried: retry !== undefined && thrown === undefined,
    reset: events.some((event) => event.type === 'stream_reset'),
    text: text.slice(text.lastIndexOf('Recovered')),
  };
}

describe('the same fault on both wires', () => {
  it.each(CASES)('$name: $error, retried: $retried', async (c) => {
    const seen: Record<Wire, Outcome> = {} as Record<Wire, Outcome>;
    for (const wire of WIRES) {
      server.reset([{ fault: c.fault }, RECOVERED]);
      seen[wire] = await outcome(providerFor(wire, server.url));
      expect(server.requests.filter((r) => r.turnIndex !== undefined)).toHaveLength(c.retried ? 2 : 1);
    }
    const expected: Outcome = {
      error: c.error,
      retryable: c.retried,
      retried: c.retried,
      reset: c.reset ?? false,
      text: c.retried ? 'Recovered after the fault.' : '',
    };
    expect(seen).toEqual({ anthropic: expected, openai: expected });
  });

  it('a refused connection is not retried on either wire, and names the address', async () => {
    const port = await closedPort();
    for (const wire of WIRES) {
      const result = await outcome(providerFor(wire, `http://127.0.0.1:${port}`));
      expect(result).toMatchObject({ error: 'UnreachableError', retryable: false, retried: false });
    }
  });

  it('an error nobody can name while the body streams is not retried on either wire', async () => {
    // Not a socket error, not the API's answer, not a garbled chunk: what a bug would throw.
    const breaking: FetchLike = async (input, init) => {
      const response = await fetch(input, init);
      const reader = response.body?.getReader();
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await reader?.read();
          if (!next || next.done || sent++ >= 2) {
            controller.error(new Error('decoder exploded'));
            return;
          }
          controller.enqueue(next.value);
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    for (const wire of WIRES) {
      server.reset([
        {
          reply: { content: [{ type: 'text', text: 'one two three four five six seven' }] },
          chunkDelayMs: 5,
        },
        RECOVERED,
      ]);
      const result = await outcome(providerFor(wire, server.url, breaking));
      expect(result).toMatchObject({ error: 'ModelError', retryable: false, retried: false });
    }
  });
});
