/**
 * A provider under test driven to its end or its first error: the request every error test
 * sends, and the error an HTTP reply or stream turns into.
 */
import type { ModelError } from '../errors';
import type { ModelRequest, StreamEvent } from '../types';
import { blockDelta, blockStart, fakeFetch, messageEvents, type Reply } from './fake-fetch';
import { AnthropicProvider } from './provider';

export const request: ModelRequest = {
  model: 'claude-opus-5-5',
  system: [],
  messages: [{ role: 'user', content: 'hi' }],
  maxTokens: 256,
};

/** Streams until the end or the first error; returns what arrived and what was thrown. */
export async function drain(
  provider: AnthropicProvider,
  signal?: AbortSignal,
): Promise<{ events: StreamEvent[]; error: unknown }> {
  const events: StreamEvent[] = [];
  try {
    for await (const event of provider.stream(request, signal)) events.push(event);
  } catch (error) {
    return { events, error };
  }
  return { events, error: undefined };
}

export async function errorFor(...replies: Reply[]): Promise<ModelError> {
  const { fetch } = fakeFetch(...replies);
  const { error } = await drain(new AnthropicProvider({ apiKey: 'sk-test', fetch }));
  if (error === undefined) throw new Error('expected the stream to fail');
  return error as ModelError;
}

export const apiError = (
  status: number,
  type: string,
  message: string,
  headers?: Record<string, string>,
): Reply => ({
  kind: 'json',
  status,
  body: { type: 'error', error: { type, message } },
  ...(headers ? { headers } : {}),
});

/** Events of a response that was cut off inside its first text block. */
export const partialEvents = messageEvents([
  blockStart(0, { type: 'text', text: '' }),
  blockDelta(0, { type: 'text_delta', text: 'Hal' }),
]).slice(0, 4);
