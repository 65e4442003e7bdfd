/**
 * The provider-neutral vocabulary of the model layer.
 *
 * Conversation content uses the Anthropic Messages shape as Yoke's canonical form: transcripts,
 * the stream-json protocol and hooks all speak it, so only the OpenAI-compatible provider has to
 * translate (both ways, keeping tool-call ids).
 */

import type { EffortLevel } from './effort';
import type { ModelError } from './errors';

export type Base64ImageSource = {
  type: 'base64';
  media_type: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  data: string;
};
export type UrlImageSource = { type: 'url'; url: string };

export type TextBlock = { type: 'text'; text: string };
export type ImageBlock = { type: 'image'; source: Base64ImageSource | UrlImageSource };
export type DocumentBlock = {
  type: 'document';
  source:
    | { type: 'base64'; media_type: 'application/pdf'; data: string }
    | { type: 'text'; media_type: 'text/plain'; data: string };
  title?: string;
};
export type ThinkingBlock = { type: 'thinking'; thinking: string; signature: string };
export type RedactedThinkingBlock = { type: 'redacted_thinking'; data: string };
export type ToolUseBlock = { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };
/**
 * A ToolSearch result naming a deferred tool: the Anthropic API expands it into that tool's
 * schema in place, so loading a tool leaves the cached prefix alone. Other wires get it as text.
 */
export type ToolReferenceBlock = { type: 'tool_reference'; tool_name: string };
export type ToolResultContent = string | Array<TextBlock | ImageBlock | DocumentBlock | ToolReferenceBlock>;
export type ToolResultBlock = {
  type: 'tool_result';
  tool_use_id: string;
  content: ToolResultContent;
  is_error?: boolean;
};

export type AssistantContentBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock;
export type UserContentBlock = TextBlock | ImageBlock | DocumentBlock | ToolResultBlock;
export type ContentBlock = AssistantContentBlock | UserContentBlock;

export type UserMessageParam = { role: 'user'; content: string | UserContentBlock[] };
export type AssistantMessageParam = { role: 'assistant'; content: string | AssistantContentBlock[] };
/** One message of the conversation as it is sent to a model. */
export type MessageParam = UserMessageParam | AssistantMessageParam;

/** A JSON Schema object describing a tool's input. */
export type JsonSchemaObject = { type: 'object'; [key: string]: unknown };

export type ToolSchema = {
  name: string;
  description: string;
  input_schema: JsonSchemaObject;
  /**
   * A deferred tool the model loaded with ToolSearch: on the Anthropic wire its schema reaches
   * the model only where a `tool_reference` names it (`defer_loading`), so it is not part of the
   * cached prefix; wires without that feature send it as an ordinary tool.
   */
  deferLoading?: true;
};

export type ThinkingConfig =
  | { type: 'disabled' }
  | { type: 'enabled'; budgetTokens: number }
  | { type: 'adaptive' };

/** A thinking budget as `--max-thinking-tokens` and the SDK give it: 0 turns thinking off. */
export const thinkingForBudget = (tokens: number): ThinkingConfig =>
  tokens === 0 ? { type: 'disabled' } : { type: 'enabled', budgetTokens: tokens };

export type ToolChoice =
  | { type: 'auto' }
  | { type: 'any' }
  | { type: 'tool'; name: string }
  | { type: 'none' };

/** A system prompt part. `cacheBreakpoint` marks the end of a stable prefix worth caching. */
export type SystemPart = { text: string; cacheBreakpoint?: boolean };

export type ModelRequest = {
  model: string;
  system: SystemPart[];
  messages: MessageParam[];
  tools?: ToolSchema[];
  /**
   * How many of `tools` are built-ins (they come first). The cache breakpoint goes after the
   * last built-in so that MCP tools changing does not invalidate the cached prefix.
   */
  builtinToolCount?: number;
  maxTokens: number;
  thinking?: ThinkingConfig;
  /** The effort asked for; each wire sends it only as its model takes it (effort.ts). */
  effort?: EffortLevel;
  toolChoice?: ToolChoice;
  temperature?: number;
  stopSequences?: string[];
};

export type StopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded';

export type Usage = {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
};

export const emptyUsage = (): Usage => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
});

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadInputTokens: a.cacheReadInputTokens + b.cacheReadInputTokens,
    cacheCreationInputTokens: a.cacheCreationInputTokens + b.cacheCreationInputTokens,
  };
}

/** The kind of a content block as it opens in the stream. */
export type BlockStart =
  | { type: 'text' }
  | { type: 'thinking' }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string };

/**
 * Normalized stream events. Both providers produce exactly this sequence:
 * `message_start`, then per block `block_start` → deltas → `block_stop` (carrying the finished
 * block), then `message_stop` with the stop reason and the final usage.
 * `stream_reset` means the transport failed mid-stream and the request is being retried from the
 * start: everything received since `message_start` must be discarded.
 * `retry` says a request failed and is sent again after `delayMs`; it comes before the wait, so the
 * user learns of the failure while it is being waited out.
 */
export type StreamEvent =
  | { type: 'message_start'; messageId: string; model: string; requestId?: string; usage: Usage }
  | { type: 'block_start'; index: number; block: BlockStart }
  | { type: 'text_delta'; index: number; text: string }
  | { type: 'thinking_delta'; index: number; thinking: string }
  | { type: 'signature_delta'; index: number; signature: string }
  | { type: 'input_json_delta'; index: number; partialJson: string }
  | {
      type: 'block_stop';
      index: number;
      block: AssistantContentBlock;
      /** Set when a tool_use block's input was not valid JSON; `block.input` is then `{}`. */
      malformedInput?: string;
    }
  | { type: 'message_stop'; stopReason: StopReason; stopSequence?: string | null; usage: Usage }
  | { type: 'stream_reset'; attempt: number; reason: string }
  | RetryEvent;

export type RetryEvent = {
  type: 'retry';
  /** 1 for the first retry; counted within the error's own budget (overloaded has its own). */
  attempt: number;
  maxRetries: number;
  delayMs: number;
  error: ModelError;
  /** Set when no answer came within the first-byte wait: how long it waited, and will wait next. */
  noResponse?: { waitedMs: number; retryWaitMs: number };
};

/** A model backend: streams one request's response as normalized events. */
export interface Provider {
  readonly name: ProviderName;
  stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<StreamEvent>;
  /** Exact input token count from the API where it offers one. */
  countTokens?(request: ModelRequest, signal?: AbortSignal): Promise<number>;
  /**
   * Opens the connection the first request will use (DNS, TCP, TLS) without sending anything, so
   * that request does not wait for it. Failures are left for the request to report.
   */
  preconnect?(): void;
}

export type ProviderName = 'anthropic' | 'openai' | 'fake';

/** Environment variables as Yoke passes them around (process.env plus settings' `env`). */
export type Env = Record<string, string | undefined>;
