import { describe, expect, it } from 'vitest';
import { AbortedError, ConnectionError, MissingCredentialsError } from '../errors';
import type { StreamEvent } from '../types';
import { OpenAIProvider } from './provider';
import { chunk, request, run, scriptedFetch } from './scripted-fetch.fixture';

const types = (events: StreamEvent[]) => events.map((e) => ('index' in e ? `${e.type}:${e.index}` : e.type));

describe('OpenAIProvider stream failures', () => {
  it('fails with a mid-stream ConnectionError when the body drops after events were sent', async () => {
    const { events, error } = await run({
      kind: 'sse',
      chunks: [chunk({ content: 'partial' })],
      ending: 'disconnect',
    });
    expect(types(events)).toEqual(['message_start', 'block_start:0', 'text_delta:0']);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).midStream).toBe(true);
    expect((error as ConnectionError).requestId).toBe('req_123');
  });

  it('fails when the stream ends cleanly but without a finish_reason', async () => {
    const { error } = await run({ kind: 'sse', chunks: [chunk({ content: 'partial' })] });
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).midStream).toBe(true);
    expect((error as ConnectionError).message).toMatch(/ended before/);
  });

  it('treats an empty stream as a connection failure before any event', async () => {
    const { events, error } = await run({ kind: 'sse', chunks: [] });
    expect(events).toEqual([]);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).midStream).toBe(false);
  });

  it('throws AbortedError when aborted mid-stream, promptly', async () => {
    const controller = new AbortController();
    const { fetch } = scriptedFetch({ kind: 'sse', chunks: [chunk({ content: 'first' })], ending: 'hang' });
    const provider = new OpenAIProvider({ apiKey: 'sk-test', fetch });
    const seen: StreamEvent[] = [];
    const consume = async () => {
      for await (const event of provider.stream(request(), controller.signal)) {
        seen.push(event);
        if (event.type === 'text_delta') controller.abort();
      }
    };
    await expect(consume()).rejects.toBeInstanceOf(AbortedError);
    expect(seen.map((e) => e.type)).toEqual(['message_start', 'block_start', 'text_delta']);
  });

  it('throws AbortedError when aborted while waiting for the response headers', async () => {
    const controller = new AbortController();
    const { fetch: stalled, requests } = scriptedFetch({ kind: 'stall' });
    // Abort right after the request is on the wire, before any response arrives.
    const fetch: typeof globalThis.fetch = (input, init) => {
      const pending = stalled(input, init);
      controller.abort();
      return pending;
    };
    const provider = new OpenAIProvider({ apiKey: 'sk-test', fetch });
    const consume = async () => {
      for await (const _ of provider.stream(request(), controller.signal)) {
        // No event is expected.
      }
    };
    await expect(consume()).rejects.toBeInstanceOf(AbortedError);
    expect(requests).toHaveLength(1);
  });

  it('throws AbortedError without a request when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { events, error, requests } = await run(
      { kind: 'sse', chunks: [chunk({ finish_reason: 'stop' })] },
      { signal: controller.signal },
    );
    expect(events).toEqual([]);
    expect(error).toBeInstanceOf(AbortedError);
    expect(requests).toHaveLength(0);
  });

  it('asks for OPENAI_API_KEY when talking to OpenAI without a key', async () => {
    const { error, requests } = await run(
      { kind: 'sse', chunks: [chunk({ finish_reason: 'stop' })] },
      { provider: { apiKey: undefined } },
    );
    expect(error).toBeInstanceOf(MissingCredentialsError);
    expect((error as Error).message).toContain('OPENAI_API_KEY');
    expect(requests).toHaveLength(0);
  });
});
