/**
 * Renders a resolved reply in the OpenAI chat-completions wire format. Thinking maps to
 * `reasoning_content` (the de-facto field of OpenAI-compatible reasoning servers); redacted
 * thinking has no OpenAI equivalent and is left out.
 */
import type { StopReason, Usage } from '../../model/types';
import type { OutgoingEvent } from './anthropic-wire';
import { type ResolvedReply, splitJson, splitText } from './reply';

export function finishReason(stopReason: StopReason): string {
  switch (stopReason) {
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content_filter';
    default:
      return 'stop';
  }
}

/** OpenAI counts cached tokens inside prompt_tokens and reports them again as a detail. */
export function openaiUsage(usage: Usage) {
  const prompt = usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.outputTokens,
    total_tokens: prompt + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadInputTokens },
  };
}

function toolCalls(reply: ResolvedReply) {
  return reply.content.flatMap((block) =>
    block.type === 'tool_use'
      ? [
          {
            id: block.id,
            type: 'function',
            function: { name: block.name, arguments: JSON.stringify(block.input) },
          },
        ]
      : [],
  );
}

export function openaiCompletion(reply: ResolvedReply, id: string, model: string, created: number) {
  const text = reply.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  const reasoning = reply.content.flatMap((b) => (b.type === 'thinking' ? [b.thinking] : [])).join('');
  const calls = toolCalls(reply);
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text || null,
          refusal: null,
          ...(reasoning ? { reasoning_content: reasoning } : {}),
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        },
        logprobs: null,
        finish_reason: finishReason(reply.stopReason),
      },
    ],
    usage: openaiUsage(reply.usage),
  };
}

export function openaiChunks(
  reply: ResolvedReply,
  id: string,
  model: string,
  created: number,
  includeUsage: boolean,
): OutgoingEvent[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): OutgoingEvent => ({
    data: {
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(includeUsage ? { usage: null } : {}),
    },
  });
  const events: OutgoingEvent[] = [chunk({ role: 'assistant', content: '' })];
  let toolIndex = 0;
  for (const block of reply.content) {
    if (block.type === 'text') {
      for (const content of splitText(block.text)) events.push(chunk({ content }));
    } else if (block.type === 'thinking') {
      for (const reasoning_content of splitText(block.thinking)) events.push(chunk({ reasoning_content }));
    } else if (block.type === 'tool_use') {
      const index = toolIndex++;
      events.push(
        chunk({
          tool_calls: [
            { index, id: block.id, type: 'function', function: { name: block.name, arguments: '' } },
          ],
        }),
      );
      for (const args of splitJson(JSON.stringify(block.input))) {
        events.push(chunk({ tool_calls: [{ index, function: { arguments: args } }] }));
      }
    }
  }
  events.push(chunk({}, finishReason(reply.stopReason)));
  if (includeUsage) {
    events.push({
      data: {
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        choices: [],
        usage: openaiUsage(reply.usage),
      },
    });
  }
  events.push({ data: '[DONE]' });
  return events;
}

/** The OpenAI error `type` for an HTTP status. */
export function openaiErrorType(status: number): string {
  if (status === 401) return 'invalid_request_error';
  if (status === 429) return 'rate_limit_exceeded';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

export function openaiErrorBody(type: string, message: string, code: string | null = null) {
  return { error: { message, type, param: null, code } };
}
