import { describe, expect, it } from 'vitest';
import { FakeProvider, type FakeScript } from '../testing/fake-provider';
import { CostTracker } from './cost';
import { AbortedError, ConnectionError, ServerError } from './errors';
import { withRetry } from './retry';
import { createSideCallClient, type SideCallRetry } from './side-call';
import { emptyUsage, type Provider } from './types';

const FAST = 'claude-haiku-5-5';
const MAIN = 'claude-sonnet-5-5';

const instant = { sleep: async () => {}, random: () => 0 };

function client(provider: Provider) {
  const costs = new CostTracker();
  const retries: SideCallRetry[] = [];
  const sideCalls = createSideCallClient({
    provider,
    fastModel: () => FAST,
    usage: costs,
    onRetry: (retry) => retries.push(retry),
  });
  return { sideCalls, costs, retries };
}

const ask = (overrides: { model?: string; maxRetries?: number } = {}) => ({
  purpose: 'web_fetch' as const,
  system: [{ text: 'Answer about the page.' }],
  messages: [{ role: 'user' as const, content: 'What does it say?' }],
  maxTokens: 100,
  ...overrides,
});

const answer = (text: string, usage = { inputTokens: 1_000, outputTokens: 200 }) => ({
  content: [{ type: 'text' as const, text }],
  usage,
});

describe('the side-call client', () => {
  it('asks the fast model unless told otherwise, and puts the cost in the session tracker', async () => {
    const provider = new FakeProvider([answer('It says hello.'), answer('Summary.')]);
    const { sideCalls, costs } = client(provider);

    const result = await sideCalls.complete(ask(), new AbortController().signal);
    expect(result).toMatchObject({ text: 'It says hello.', model: FAST, stopReason: 'end_turn' });
    // claude-haiku-5-5: $1 per million input tokens, $5 per million output tokens.
    expect(result.costUsd).toBeCloseTo(0.001 + 0.001, 10);

    await sideCalls.complete(ask({ model: MAIN }), new AbortController().signal);
    expect(provider.requests.map((r) => r.model)).toEqual([FAST, MAIN]);
    expect(Object.keys(costs.byModel())).toEqual([FAST, MAIN]);
    expect(costs.total().requests).toBe(2);
    expect(costs.byModel()[FAST]).toMatchObject({ inputTokens: 1_000, outputTokens: 200 });
  });

  it('starts over after a stream reset: only the retried answer counts, once', async () => {
    const script: FakeScript = [
      {
        reply: answer('A first attempt that the connection cuts'),
        error: new ConnectionError('The connection dropped', true),
        afterEvents: 4,
      },
      answer('The complete answer.'),
    ];
    const { sideCalls, costs, retries } = client(withRetry(new FakeProvider(script), { clock: instant }));
    const result = await sideCalls.complete(ask(), new AbortController().signal);
    expect(result.text).toBe('The complete answer.');
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ purpose: 'web_fetch', event: { attempt: 1 } });
    expect(costs.total().requests).toBe(1);
    expect(costs.total().usage).toMatchObject({ inputTokens: 1_000, outputTokens: 200 });
  });

  it('gives a call its own retry limit on the session provider', async () => {
    const failing = () => new FakeProvider([new ServerError('busy'), new ServerError('busy'), answer('ok')]);
    const session = withRetry(failing(), { clock: instant, maxRetries: 5 });
    await expect(
      client(session).sideCalls.complete(ask(), new AbortController().signal),
    ).resolves.toMatchObject({ text: 'ok' });

    const fake = failing();
    const { sideCalls, retries } = client(withRetry(fake, { clock: instant, maxRetries: 5 }));
    await expect(sideCalls.complete(ask({ maxRetries: 1 }), new AbortController().signal)).rejects.toThrow(
      'busy',
    );
    expect(fake.requests).toHaveLength(2);
    expect(retries).toHaveLength(1);
  });

  it('counts the input of an answer the caller aborted after it started, as the conversation does', async () => {
    const controller = new AbortController();
    const fake = new FakeProvider([answer('A long answer that is interrupted')]);
    // Interrupts the call as soon as the answer's first words arrive.
    const interrupted: Provider = {
      name: 'fake',
      async *stream(request, signal) {
        for await (const event of fake.stream(request, signal)) {
          yield event;
          if (event.type === 'text_delta') controller.abort();
        }
      },
    };
    const { sideCalls, costs } = client(interrupted);
    await expect(sideCalls.complete(ask(), controller.signal)).rejects.toBeInstanceOf(AbortedError);
    expect(costs.byModel()[FAST]).toMatchObject({ inputTokens: 1_000, outputTokens: 0 });
    expect(sideCalls.fastModel()).toBe(FAST);
  });

  it('fails when the stream ends without the end of the answer', async () => {
    const truncated: Provider = {
      name: 'fake',
      async *stream() {
        yield { type: 'message_start', messageId: 'm', model: FAST, usage: emptyUsage() };
      },
    };
    const { sideCalls, costs } = client(truncated);
    await expect(sideCalls.complete(ask(), new AbortController().signal)).rejects.toBeInstanceOf(
      ConnectionError,
    );
    expect(costs.total().requests).toBe(0);
  });
});
