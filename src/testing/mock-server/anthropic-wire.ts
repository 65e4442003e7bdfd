/**
 * Renders a resolved reply in the Anthropic Messages wire format: the SSE event sequence of a
 * streaming response, and the JSON message of a non-streaming one.
 */
import type { Usage } from '../../model/types';
import { type ResolvedReply, splitJson, splitText } from './reply';

export type OutgoingEvent = { event?: string; data: unknown };

export function anthropicUsage(usage: Usage) {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: usage.cacheCreationInputTokens,
    cache_read_input_tokens: usage.cacheReadInputTokens,
  };
}

export function anthropicMessage(reply: ResolvedReply, id: string, model: string) {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: reply.content,
    stop_reason: reply.stopReason,
    stop_sequence: null,
    usage: anthropicUsage(reply.usage),
  };
}

const ev = (data: { type: string; [key: string]: unknown }): OutgoingEvent => ({ event: data.type, data });

export function anthropicEvents(reply: ResolvedReply, id: string, model: string): OutgoingEvent[] {
  const events: OutgoingEvent[] = [
    ev({
      type: 'message_start',
      message: {
        ...anthropicMessage(reply, id, model),
        content: [],
        stop_reason: null,
        // Like the real API: input counts are known up front, output grows as the reply streams.
        usage: anthropicUsage({ ...reply.usage, outputTokens: 1 }),
      },
    }),
    ev({ type: 'ping' }),
  ];
  reply.content.forEach((block, index) => {
    const delta = (d: Record<string, unknown>) => ev({ type: 'content_block_delta', index, delta: d });
    switch (block.type) {
      case 'text':
        events.push(ev({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
        for (const text of splitText(block.text)) events.push(delta({ type: 'text_delta', text }));
        break;
      case 'thinking':
        events.push(
          ev({
            type: 'content_block_start',
            index,
            content_block: { type: 'thinking', thinking: '', signature: '' },
          }),
        );
        for (const thinking of splitText(block.thinking))
          events.push(delta({ type: 'thinking_delta', thinking }));
        events.push(delta({ type: 'signature_delta', signature: block.signature }));
        break;
      case 'redacted_thinking':
        events.push(ev({ type: 'content_block_start', index, content_block: block }));
        break;
      case 'tool_use':
        events.push(
          ev({
            type: 'content_block_start',
            index,
            content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
          }),
        );
        // The real API opens with an empty fragment; clients must cope with it.
        events.push(delta({ type: 'input_json_delta', partial_json: '' }));
        for (const partial_json of splitJson(JSON.stringify(block.input))) {
          events.push(delta({ type: 'input_json_delta', partial_json }));
        }
        break;
    }
    events.push(ev({ type: 'content_block_stop', index }));
  });
  events.push(
    ev({
      type: 'message_delta',
      delta: { stop_reason: reply.stopReason, stop_sequence: null },
      usage: anthropicUsage(reply.usage),
    }),
    ev({ type: 'message_stop' }),
  );
  return events;
}

/** The Anthropic error type for an HTTP status, as the real API names them. */
export function anthropicErrorType(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    529: 'overloaded_error',
  };
  return types[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

export function anthropicErrorBody(type: string, message: string) {
  return { type: 'error', error: { type, message } };
}
