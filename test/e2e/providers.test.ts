/**
 * Both providers, selected and wrapped with retries exactly as the CLI does it, against the mock
 * model server over real HTTP and SSE — including every fault the server can inject.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OverloadedError, PromptTooLongError, ServerError } from '../../src/model/errors';
import type { RetryClock } from '../../src/model/retry';
import { selectModel } from '../../src/model/select';
import type { ModelRequest, StreamEvent } from '../../src/model/types';
import { type MockServer, type ScenarioInput, startMockServer } from '../../src/testing/mock-server';

type Api = 'anthropic' | 'openai';

/** Records the waits the retry layer asks for instead of sleeping through them. */
function recordingClock(): RetryClock & { waits: number[] } {
  const waits: number[] = [];
  return { waits, random: () => 0.5, sleep: async (ms) => void waits.push(ms) };
}

const request = (model: string): ModelRequest => ({
  model,
  system: [{ text: 'You are a test.' }],
  messages: [{ role: 'user', content: 'hello' }],
  tools: [
    {
      name: 'Read',
      description: 'Read a file',
      input_schema: {
        type: 'object',
        properties: { file_path: { type: 'string' } },
        required: ['file_path'],
      },
    },
  ],
  maxTokens: 1000,
});

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
});
afterAll(async () => {
  await server.close();
});

async function run(api: Api, scenario: ScenarioInput, clock = recordingClock()) {
  server.reset(scenario);
  const env =
    api === 'anthropic'
      ? { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url }
      : { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` };
  const model = api === 'anthropic' ? 'claude-opus-5-5' : 'gpt-4.1';
  const selection = await selectModel({ model, env, retry: { clock } });
  expect(selection.providerName).toBe(api);
  const events: StreamEvent[] = [];
  let error: unknown;
  try {
    for await (const event of selection.provider.stream(request(model))) events.push(event);
  } catch (caught) {
    error = caught;
  }
  return { events, error, clock };
}

const stopOf = (events: StreamEvent[]) => events.find((e) => e.type === 'message_stop');
const finished = (events: StreamEvent[]) => events.flatMap((e) => (e.type === 'block_stop' ? [e.block] : []));

describe.each<Api>(['anthropic', 'openai'])('%s provider over HTTP', (api) => {
  it('streams text and a tool call with its input and id intact', async () => {
    const { events, error } = await run(api, [
      {
        reply: {
          content: [
            { type: 'text', text: 'Let me read the file for you now.' },
            { type: 'tool_use', id: 'toolu_e2e_1', name: 'Read', input: { file_path: '/tmp/a.txt' } },
          ],
        },
      },
    ]);
    expect(error).toBeUndefined();
    expect(events[0]?.type).toBe('message_start');
    expect(events.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(1);
    expect(finished(events)).toEqual([
      { type: 'text', text: 'Let me read the file for you now.' },
      { type: 'tool_use', id: 'toolu_e2e_1', name: 'Read', input: { file_path: '/tmp/a.txt' } },
    ]);
    expect(stopOf(events)).toMatchObject({ stopReason: 'tool_use' });
    const recorded = server.requests[0];
    expect(recorded?.api).toBe(api);
    expect(JSON.stringify(recorded?.body)).toContain('file_path');
  });

  it('retries a 429, waiting at least the retry-after time', async () => {
    const { events, error, clock } = await run(api, [
      { fault: { type: 'http', status: 429, retryAfter: 2 } },
      { reply: { content: [{ type: 'text', text: 'after the rate limit' }] } },
    ]);
    expect(error).toBeUndefined();
    expect(finished(events)).toEqual([{ type: 'text', text: 'after the rate limit' }]);
    expect(clock.waits).toHaveLength(1);
    expect(clock.waits[0]).toBeGreaterThanOrEqual(2000);
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 500 and succeeds', async () => {
    const { events, error, clock } = await run(api, [
      { fault: 500 },
      { reply: { content: [{ type: 'text', text: 'recovered' }] } },
    ]);
    expect(error).toBeUndefined();
    expect(finished(events)).toEqual([{ type: 'text', text: 'recovered' }]);
    expect(clock.waits).toHaveLength(1);
  });

  it('raises OverloadedError after the overload retries are spent', async () => {
    const { error, clock } = await run(api, [{ fault: { type: 'overloaded' }, repeat: 'forever' }]);
    expect(error).toBeInstanceOf(OverloadedError);
    expect(clock.waits).toHaveLength(3);
    expect(server.requests).toHaveLength(4);
  });

  it.each([413, 400] as const)('raises PromptTooLongError with the counts for a %i', async (status) => {
    const { error, clock } = await run(api, [
      { fault: { type: 'prompt_too_long', status, actualTokens: 250_000, limitTokens: 200_000 } },
    ]);
    expect(error).toBeInstanceOf(PromptTooLongError);
    expect(error).toMatchObject({ actualTokens: 250_000, limitTokens: 200_000 });
    expect(clock.waits).toHaveLength(0);
  });

  it('reports a max_tokens stop', async () => {
    const { events, error } = await run(api, [
      { reply: { content: [{ type: 'text', text: 'This answer is cut' }], stopReason: 'max_tokens' } },
    ]);
    expect(error).toBeUndefined();
    expect(stopOf(events)).toMatchObject({ stopReason: 'max_tokens' });
  });

  it('restarts a stream that drops mid-response and tells the consumer to discard', async () => {
    const { events, error } = await run(api, [
      {
        reply: { content: [{ type: 'text', text: 'one two three four five six seven' }] },
        fault: { type: 'disconnect', afterEvents: 3 },
      },
      { reply: { content: [{ type: 'text', text: 'complete answer' }] } },
    ]);
    expect(error).toBeUndefined();
    const reset = events.findIndex((e) => e.type === 'stream_reset');
    expect(reset).toBeGreaterThan(0);
    expect(finished(events.slice(reset))).toEqual([{ type: 'text', text: 'complete answer' }]);
  });

  it('handles a slow stream', async () => {
    const { events, error } = await run(api, [
      {
        reply: { content: [{ type: 'text', text: 'slow but steady wins the race today' }] },
        chunkDelayMs: 15,
      },
    ]);
    expect(error).toBeUndefined();
    expect(finished(events)).toEqual([{ type: 'text', text: 'slow but steady wins the race today' }]);
  });

  it('does not retry a 5xx the server marks x-should-retry: false', async () => {
    const { error, clock } = await run(api, []);
    expect(error).toBeInstanceOf(ServerError);
    expect(clock.waits).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
  });

  it('reports usage with the final message', async () => {
    const { events } = await run(api, [
      { reply: { content: [{ type: 'text', text: 'ok' }], usage: { inputTokens: 1234, outputTokens: 56 } } },
    ]);
    expect(stopOf(events)).toMatchObject({ usage: { inputTokens: 1234, outputTokens: 56 } });
  });
});

describe('anthropic-only behaviour over HTTP', () => {
  it('streams thinking with its signature', async () => {
    const { events, error } = await run('anthropic', [
      {
        reply: {
          content: [
            { type: 'thinking', thinking: 'Let me think about this.', signature: 'sig-e2e' },
            { type: 'text', text: 'Answer.' },
          ],
        },
      },
    ]);
    expect(error).toBeUndefined();
    expect(finished(events)[0]).toEqual({
      type: 'thinking',
      thinking: 'Let me think about this.',
      signature: 'sig-e2e',
    });
  });

  it('retries an overloaded error sent inside the stream', async () => {
    const { events, error } = await run('anthropic', [
      { fault: { type: 'stream_error', errorType: 'overloaded_error' } },
      { reply: { content: [{ type: 'text', text: 'second try' }] } },
    ]);
    expect(error).toBeUndefined();
    expect(finished(events.slice(events.findIndex((e) => e.type === 'stream_reset') + 1))).toEqual([
      { type: 'text', text: 'second try' },
    ]);
  });

  it('sends the key as x-api-key and keeps the request id', async () => {
    const { events } = await run('anthropic', [{ reply: { content: [{ type: 'text', text: 'hi' }] } }]);
    expect(server.requests[0]?.headers['x-api-key']).toBe('sk-ant-test');
    const start = events[0];
    expect(start?.type === 'message_start' && start.requestId).toMatch(/^req_/);
  });
});
