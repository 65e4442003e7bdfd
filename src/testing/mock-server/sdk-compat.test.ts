import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from './scenario';
import { serverPerTest } from './test-support';

// The official SDKs are the strictest readers of the wire format; if they accept the mock's
// streams and errors, the Yoke providers built on them will too.
const start = serverPerTest();

const reply: ScenarioInput = [
  {
    repeat: 'forever',
    reply: {
      content: [
        { type: 'thinking', thinking: 'Plan: list the files.', signature: 'sig' },
        { type: 'text', text: 'Listing the files now.' },
        { type: 'tool_use', id: 'toolu_x', name: 'Bash', input: { command: 'ls -la' } },
      ],
    },
  },
];

describe('mock server with the official SDKs', () => {
  it('streams a message the Anthropic SDK accumulates into the scripted content', async () => {
    const s = await start(reply);
    const client = new Anthropic({ apiKey: 'k', baseURL: s.url, maxRetries: 0 });
    const stream = client.messages.stream({
      model: 'm',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const message = await stream.finalMessage();
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Plan: list the files.', signature: 'sig' },
      { type: 'text', text: 'Listing the files now.' },
      { type: 'tool_use', id: 'toolu_x', name: 'Bash', input: { command: 'ls -la' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
  });

  it('gives the Anthropic SDK typed errors with the retry-after and request id', async () => {
    const s = await start([{ fault: { type: 'http', status: 429, retryAfter: 2 } }]);
    const client = new Anthropic({ apiKey: 'k', baseURL: s.url, maxRetries: 0 });
    const error = await client.messages
      .create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect((error as InstanceType<typeof Anthropic.RateLimitError>).requestID).toMatch(/^req_mock/);
  });

  it('streams a chat completion the OpenAI SDK reads, including tool calls and usage', async () => {
    const s = await start(reply);
    const client = new OpenAI({ apiKey: 'k', baseURL: `${s.url}/v1`, maxRetries: 0 });
    const stream = client.chat.completions.stream({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream_options: { include_usage: true },
    });
    const completion = await stream.finalChatCompletion();
    const message = completion.choices[0]?.message;
    expect(message?.content).toBe('Listing the files now.');
    expect(message?.tool_calls?.[0]).toMatchObject({ id: 'toolu_x', function: { name: 'Bash' } });
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(completion.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('raises the OpenAI SDK error for an in-stream error chunk', async () => {
    const s = await start([{ fault: { type: 'stream_error', errorType: 'server_error', message: 'boom' } }]);
    const client = new OpenAI({ apiKey: 'k', baseURL: `${s.url}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    await expect(
      (async () => {
        for await (const _chunk of stream) {
          // Drain until the error chunk.
        }
      })(),
    ).rejects.toThrow(/boom/);
  });
});
