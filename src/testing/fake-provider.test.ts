import { describe, expect, it } from 'vitest';
import { AbortedError, RateLimitError } from '../model/errors';
import type { ModelRequest, StreamEvent } from '../model/types';
import { FakeProvider } from './fake-provider';

const request = (text = 'hello'): ModelRequest => ({
  model: 'fake-model',
  system: [{ text: 'You are a test.' }],
  messages: [{ role: 'user', content: text }],
  maxTokens: 100,
});

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('FakeProvider', () => {
  it('plays a reply as normalized events with parsed tool input and usage', async () => {
    const provider = new FakeProvider([
      {
        content: [
          { type: 'thinking', thinking: 'I should look at the files first.', signature: 's1' },
          { type: 'text', text: 'Let me check the directory listing for you.' },
          { type: 'tool_use', id: 'tu1', name: 'Bash', input: { command: 'ls', flags: ['-l', '-a'] } },
        ],
        usage: { outputTokens: 42 },
      },
    ]);
    const events = await collect(provider.stream(request()));
    expect(provider.name).toBe('fake');
    expect(events[0]).toMatchObject({
      type: 'message_start',
      model: 'fake-model',
      messageId: expect.any(String),
    });
    expect(events.filter((e) => e.type === 'block_start').map((e) => e.block)).toEqual([
      { type: 'thinking' },
      { type: 'text' },
      { type: 'tool_use', id: 'tu1', name: 'Bash' },
    ]);
    const text = events.flatMap((e) => (e.type === 'text_delta' ? [e.text] : []));
    expect(text.length).toBeGreaterThan(1);
    expect(text.join('')).toBe('Let me check the directory listing for you.');
    const json = events.flatMap((e) => (e.type === 'input_json_delta' ? [e.partialJson] : []));
    expect(json.length).toBeGreaterThan(1);
    expect(JSON.parse(json.join(''))).toEqual({ command: 'ls', flags: ['-l', '-a'] });
    expect(events.find((e) => e.type === 'signature_delta')).toMatchObject({ index: 0, signature: 's1' });
    const stops = events.filter((e) => e.type === 'block_stop').map((e) => e.block);
    expect(stops[2]).toEqual({
      type: 'tool_use',
      id: 'tu1',
      name: 'Bash',
      input: { command: 'ls', flags: ['-l', '-a'] },
    });
    expect(events.at(-1)).toMatchObject({
      type: 'message_stop',
      stopReason: 'tool_use',
      usage: { outputTokens: 42, cacheReadInputTokens: 0 },
    });
    const stop = events.at(-1) as Extract<StreamEvent, { type: 'message_stop' }>;
    expect(stop.usage.inputTokens).toBeGreaterThan(0);
  });

  it('records deep copies of the requests it received', async () => {
    const provider = new FakeProvider([{ content: [] }, { content: [] }]);
    const req = request('first');
    await collect(provider.stream(req));
    req.messages.push({ role: 'assistant', content: 'mutated later' });
    await collect(provider.stream(request('second')));
    expect(provider.requests.map((r) => r.messages.length)).toEqual([1, 1]);
    expect(provider.requests[1]?.messages[0]?.content).toBe('second');
  });

  it('throws a scripted error, at once or after N events', async () => {
    const limited = new RateLimitError('slow down', 1000);
    const provider = new FakeProvider([
      limited,
      {
        reply: { content: [{ type: 'text', text: 'a b c d e f g' }] },
        error: new Error('dropped'),
        afterEvents: 3,
      },
    ]);
    await expect(collect(provider.stream(request()))).rejects.toBe(limited);
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const event of provider.stream(request())) seen.push(event.type);
      })(),
    ).rejects.toThrow('dropped');
    expect(seen).toEqual(['message_start', 'block_start', 'text_delta']);
  });

  it('takes steps from a function of the request and call index', async () => {
    const provider = new FakeProvider((req, call) => ({
      content: [{ type: 'text', text: `call ${call} for ${req.model}` }],
    }));
    await collect(provider.stream(request()));
    const events = await collect(provider.stream(request()));
    const text = events.flatMap((e) => (e.type === 'text_delta' ? [e.text] : [])).join('');
    expect(text).toBe('call 1 for fake-model');
  });

  it('explains running past the end of the script', async () => {
    const provider = new FakeProvider([{ content: [] }]);
    await collect(provider.stream(request()));
    await expect(collect(provider.stream(request()))).rejects.toThrow(
      /script has 1 step\(s\) but call #2 was made/,
    );
  });

  it('waits between events with the injected sleep and stops promptly on abort', async () => {
    const waits: number[] = [];
    const controller = new AbortController();
    const provider = new FakeProvider(
      [{ content: [{ type: 'text', text: 'one two three four five six seven' }] }],
      {
        eventDelayMs: 5,
        sleep: async (ms, signal) => {
          waits.push(ms);
          if (waits.length === 3) controller.abort();
          if (signal?.aborted) throw new AbortedError();
        },
      },
    );
    const seen: string[] = [];
    const run = async () => {
      for await (const event of provider.stream(request(), controller.signal)) seen.push(event.type);
    };
    await expect(run()).rejects.toBeInstanceOf(AbortedError);
    expect(seen).toEqual(['message_start', 'block_start']);
    expect(waits).toEqual([5, 5, 5]);
  });

  it('aborts a real sleep without waiting it out, and refuses an already aborted signal', async () => {
    const provider = new FakeProvider(
      [{ reply: { content: [{ type: 'text', text: 'slow' }] }, delayMs: 60_000 }, { content: [] }],
      {},
    );
    const controller = new AbortController();
    const pending = collect(provider.stream(request(), controller.signal));
    setTimeout(() => controller.abort(), 10);
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
    await expect(collect(provider.stream(request(), AbortSignal.abort()))).rejects.toBeInstanceOf(
      AbortedError,
    );
  });

  it('estimates tokens for countTokens', async () => {
    const provider = new FakeProvider([]);
    expect(await provider.countTokens(request('x'.repeat(400)))).toBeGreaterThan(100);
  });
});
