/**
 * Converts the loop's internal messages and stream events into SDK wire messages.
 */
import { randomUUID } from 'node:crypto';
import {
  AuthError,
  ConnectionError,
  InvalidRequestError,
  type ModelError,
  ModelNotFoundError,
  OverloadedError,
  RateLimitError,
  ServerError,
} from '../model/errors';
import type { RetryEvent, StreamEvent, Usage } from '../model/types';
import type { AssistantMessage, SystemMessage, UserMessage } from '../session/messages';
import type {
  SDKApiErrorCategory,
  SDKApiRetryMessage,
  SDKAssistantMessage,
  SDKSystemNoticeMessage,
  SDKUsage,
  SDKUserMessage,
} from './sdk-messages';

export function toSdkUsage(usage: Usage): SDKUsage {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: usage.cacheCreationInputTokens,
    cache_read_input_tokens: usage.cacheReadInputTokens,
    server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
    service_tier: 'standard',
  };
}

function messageUsage(usage: Usage) {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: usage.cacheCreationInputTokens,
    cache_read_input_tokens: usage.cacheReadInputTokens,
  };
}

export function toSdkAssistant(
  message: AssistantMessage,
  sessionId: string,
  parentToolUseId: string | null = null,
): SDKAssistantMessage {
  const out: SDKAssistantMessage = {
    type: 'assistant',
    message: {
      id: message.message.id,
      type: 'message',
      role: 'assistant',
      model: message.message.model,
      content: message.message.content,
      stop_reason: message.message.stop_reason,
      stop_sequence: message.message.stop_sequence,
      usage: messageUsage(message.message.usage),
      context_management: null,
    },
    parent_tool_use_id: parentToolUseId,
    session_id: sessionId,
    uuid: message.uuid,
    timestamp: message.timestamp,
  };
  if (message.requestId) out.request_id = message.requestId;
  if (message.aborted) out.aborted = true;
  if (message.apiError) out.error = 'unknown';
  return out;
}

export function toSdkUser(
  message: UserMessage,
  sessionId: string,
  parentToolUseId: string | null = null,
): SDKUserMessage {
  const out: SDKUserMessage = {
    type: 'user',
    message: message.message,
    parent_tool_use_id: parentToolUseId,
    session_id: sessionId,
    uuid: message.uuid,
    timestamp: message.timestamp,
  };
  if (message.toolUseResult !== undefined) out.tool_use_result = wireToolUseResult(message);
  if (message.isMeta) out.isSynthetic = true;
  return out;
}

/** A failed tool's `tool_use_result` reads "Error: <message>" on the wire, as hosts expect. */
function wireToolUseResult(message: UserMessage): unknown {
  const result = message.toolUseResult;
  const content = message.message.content;
  const failed =
    Array.isArray(content) &&
    content.some((block) => block.type === 'tool_result' && block.is_error === true);
  if (!failed || typeof result !== 'string' || result.startsWith('Error: ')) return result;
  return `Error: ${result}`;
}

export function toSdkSystemNotice(message: SystemMessage, sessionId: string): SDKSystemNoticeMessage {
  return {
    type: 'system',
    subtype:
      message.subtype === 'stop_hook_feedback' || message.subtype === 'warning'
        ? 'informational'
        : message.subtype,
    content: message.content,
    level: message.level ?? 'info',
    ...(message.data ?? {}),
    session_id: sessionId,
    uuid: message.uuid,
  };
}

/** The SDK's name for what went wrong; a failure without an HTTP answer is `unknown`. */
export function apiErrorCategory(error: ModelError): SDKApiErrorCategory {
  if (error instanceof RateLimitError) return 'rate_limit';
  if (error instanceof OverloadedError) return 'overloaded';
  if (error instanceof AuthError) return 'authentication_failed';
  if (error instanceof ModelNotFoundError) return 'model_not_found';
  if (error instanceof InvalidRequestError) return 'invalid_request';
  if (error instanceof ServerError) return 'server_error';
  if (error instanceof ConnectionError) return 'unknown';
  return 'unknown';
}

export function toSdkApiRetry(event: RetryEvent, sessionId: string): SDKApiRetryMessage {
  const frame: SDKApiRetryMessage = {
    type: 'system',
    subtype: 'api_retry',
    attempt: event.attempt,
    max_retries: event.maxRetries,
    retry_delay_ms: event.delayMs,
    error_status: event.error.status ?? null,
    error: apiErrorCategory(event.error),
    session_id: sessionId,
    uuid: newUuid(),
  };
  if (event.noResponse) {
    frame.no_response = { waited_ms: event.noResponse.waitedMs, retry_wait_ms: event.noResponse.retryWaitMs };
  }
  return frame;
}

/**
 * A normalized stream event as the Messages-API raw events the SDK expects in `stream_event`
 * frames. `message_stop` becomes `message_delta` + `message_stop`; `stream_reset` and `retry` have no
 * raw form (a retry becomes its own `system/api_retry` frame).
 */
export function toRawStreamEvents(event: StreamEvent): Record<string, unknown>[] {
  switch (event.type) {
    case 'message_start':
      return [
        {
          type: 'message_start',
          message: {
            id: event.messageId,
            type: 'message',
            role: 'assistant',
            model: event.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: messageUsage(event.usage),
          },
        },
      ];
    case 'block_start': {
      const b = event.block;
      const contentBlock =
        b.type === 'text'
          ? { type: 'text', text: '' }
          : b.type === 'thinking'
            ? { type: 'thinking', thinking: '', signature: '' }
            : b.type === 'redacted_thinking'
              ? { type: 'redacted_thinking', data: b.data }
              : { type: 'tool_use', id: b.id, name: b.name, input: {} };
      return [{ type: 'content_block_start', index: event.index, content_block: contentBlock }];
    }
    case 'text_delta':
      return [
        { type: 'content_block_delta', index: event.index, delta: { type: 'text_delta', text: event.text } },
      ];
    case 'thinking_delta':
      return [
        {
          type: 'content_block_delta',
          index: event.index,
          delta: { type: 'thinking_delta', thinking: event.thinking },
        },
      ];
    case 'signature_delta':
      return [
        {
          type: 'content_block_delta',
          index: event.index,
          delta: { type: 'signature_delta', signature: event.signature },
        },
      ];
    case 'input_json_delta':
      return [
        {
          type: 'content_block_delta',
          index: event.index,
          delta: { type: 'input_json_delta', partial_json: event.partialJson },
        },
      ];
    case 'block_stop':
      return [{ type: 'content_block_stop', index: event.index }];
    case 'message_stop':
      return [
        {
          type: 'message_delta',
          delta: { stop_reason: event.stopReason, stop_sequence: event.stopSequence ?? null },
          usage: { output_tokens: event.usage.outputTokens },
        },
        { type: 'message_stop' },
      ];
    case 'stream_reset':
    case 'retry':
      return [];
  }
}

export function newUuid(): string {
  return randomUUID();
}
