/**
 * Chat Completions chunks → Yoke StreamEvents.
 *
 * Chat Completions streams flat deltas (content, reasoning, tool-call fragments keyed by index);
 * Yoke wants Anthropic-style blocks with sequential indexes. This state machine keeps at most
 * one block open and closes a tool block as soon as the next one begins, so the engine can
 * start running the first tool while the model is still writing the second.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { parseJsonObject } from '../../lib/json-object';
import { ConnectionError } from '../errors';
import {
  type AssistantContentBlock,
  emptyUsage,
  type StopReason,
  type StreamEvent,
  type Usage,
} from '../types';

type OpenBlock =
  | { kind: 'text'; index: number; text: string }
  | { kind: 'thinking'; index: number; thinking: string }
  | { kind: 'tool'; index: number; id: string; name: string; args: string };

/** A tool call whose name has not arrived yet: its fragments wait here. */
type PendingTool = { id?: string; name: string; args: string };

type FinishReason = NonNullable<ChatCompletionChunk.Choice['finish_reason']>;

export type NormalizerOptions = {
  requestId?: string;
  /** The requested model, reported when the server leaves the chunk's model empty. */
  model: string;
  /** Makes an id for a tool call the server sent without one. */
  generateToolCallId: () => string;
};

export class ChatStreamNormalizer {
  private started = false;
  private nextIndex = 0;
  private open: OpenBlock | undefined;
  private pendingTool: PendingTool | undefined;
  /** The server-side index of the tool call currently streaming (open or pending). */
  private toolChoiceIndex: number | undefined;
  private sawToolCall = false;
  private sawRefusal = false;
  private finishReason: FinishReason | undefined;
  private usage: Usage = emptyUsage();

  constructor(private readonly options: NormalizerOptions) {}

  /** True once any event has been produced: a failure after this point is mid-stream. */
  get hasStarted(): boolean {
    return this.started;
  }

  push(chunk: ChatCompletionChunk): StreamEvent[] {
    const events: StreamEvent[] = [];
    const choice = chunk.choices?.[0];
    // Azure opens with an anonymous content-filter chunk; the message starts with real content.
    if (!this.started && !chunk.id && !choice && !chunk.usage) return events;
    if (!this.started) {
      this.started = true;
      events.push({
        type: 'message_start',
        messageId: chunk.id || `chatcmpl-${Date.now()}`,
        model: chunk.model || this.options.model,
        ...(this.options.requestId ? { requestId: this.options.requestId } : {}),
        usage: emptyUsage(),
      });
    }
    if (chunk.usage) this.usage = toUsage(chunk.usage);
    // Yoke never asks for n > 1, so only the first choice carries content.
    if (!choice) return events;
    const delta = choice.delta ?? {};
    const reasoning = reasoningOf(delta);
    if (reasoning) this.appendThinking(reasoning, events);
    if (delta.content) this.appendText(delta.content, events);
    if (delta.refusal) {
      this.sawRefusal = true;
      this.appendText(delta.refusal, events);
    }
    for (const call of delta.tool_calls ?? []) this.appendToolCall(call, events);
    if (choice.finish_reason) {
      this.finishReason = choice.finish_reason;
      // The usage chunk may still follow; blocks close now so tools need not wait for it.
      this.closeOpen(events);
    }
    return events;
  }

  /** Ends the message. Throws ConnectionError when the server stopped before finishing. */
  finish(): StreamEvent[] {
    if (this.finishReason === undefined) {
      throw new ConnectionError(
        this.started
          ? 'The model API stream ended before the response was complete.'
          : 'The model API returned an empty stream.',
        this.started,
        this.options.requestId ? { requestId: this.options.requestId } : {},
      );
    }
    const events: StreamEvent[] = [];
    this.closeOpen(events);
    events.push({
      type: 'message_stop',
      stopReason: this.stopReason(this.finishReason),
      stopSequence: null,
      usage: this.usage,
    });
    return events;
  }

  private stopReason(reason: FinishReason): StopReason {
    switch (reason) {
      case 'length':
        return 'max_tokens';
      case 'tool_calls':
      case 'function_call':
        return 'tool_use';
      case 'content_filter':
        return 'refusal';
      case 'stop':
        // Some local servers (older Ollama) report "stop" even after emitting tool calls.
        if (this.sawToolCall) return 'tool_use';
        return this.sawRefusal ? 'refusal' : 'end_turn';
    }
  }

  private appendText(text: string, events: StreamEvent[]): void {
    if (this.open?.kind !== 'text') {
      this.closeOpen(events);
      this.open = { kind: 'text', index: this.nextIndex++, text: '' };
      events.push({ type: 'block_start', index: this.open.index, block: { type: 'text' } });
    }
    this.open.text += text;
    events.push({ type: 'text_delta', index: this.open.index, text });
  }

  private appendThinking(thinking: string, events: StreamEvent[]): void {
    if (this.open?.kind !== 'thinking') {
      this.closeOpen(events);
      this.open = { kind: 'thinking', index: this.nextIndex++, thinking: '' };
      events.push({ type: 'block_start', index: this.open.index, block: { type: 'thinking' } });
    }
    this.open.thinking += thinking;
    events.push({ type: 'thinking_delta', index: this.open.index, thinking });
  }

  private appendToolCall(call: ChatCompletionChunk.Choice.Delta.ToolCall, events: StreamEvent[]): void {
    this.sawToolCall = true;
    const choiceIndex = call.index ?? this.toolChoiceIndex ?? 0;
    // A fragment that carries an id for a different call, or a new index, begins the next call.
    const isNew =
      this.toolChoiceIndex !== choiceIndex ||
      (call.id !== undefined && this.open?.kind === 'tool' && this.open.id !== call.id);
    if (isNew) {
      this.closeOpen(events);
      this.toolChoiceIndex = choiceIndex;
      this.pendingTool = { name: '', args: '' };
    }
    const fragment = call.function?.arguments ?? '';
    const pending = this.pendingTool;
    if (pending) {
      if (call.id) pending.id = call.id;
      if (call.function?.name) pending.name += call.function.name;
      pending.args += fragment;
      if (pending.name) this.startPendingTool(events);
      return;
    }
    if (this.open?.kind === 'tool' && fragment) {
      this.open.args += fragment;
      events.push({ type: 'input_json_delta', index: this.open.index, partialJson: fragment });
    }
  }

  private startPendingTool(events: StreamEvent[]): void {
    const pending = this.pendingTool;
    if (!pending) return;
    this.pendingTool = undefined;
    const id = pending.id || this.options.generateToolCallId();
    const index = this.nextIndex++;
    this.open = { kind: 'tool', index, id, name: pending.name, args: pending.args };
    events.push({ type: 'block_start', index, block: { type: 'tool_use', id, name: pending.name } });
    if (pending.args) events.push({ type: 'input_json_delta', index, partialJson: pending.args });
  }

  private closeOpen(events: StreamEvent[]): void {
    this.closeBlock(events);
    // A call whose name never arrived still becomes a block, so the engine can report it.
    if (this.pendingTool) {
      this.startPendingTool(events);
      this.closeBlock(events);
    }
  }

  private closeBlock(events: StreamEvent[]): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    if (open.kind === 'text') {
      events.push({ type: 'block_stop', index: open.index, block: { type: 'text', text: open.text } });
    } else if (open.kind === 'thinking') {
      // Not an Anthropic thinking block, so there is no signature to verify.
      const block: AssistantContentBlock = { type: 'thinking', thinking: open.thinking, signature: '' };
      events.push({ type: 'block_stop', index: open.index, block });
    } else {
      const { input, malformed } = parseToolInput(open.args);
      events.push({
        type: 'block_stop',
        index: open.index,
        block: { type: 'tool_use', id: open.id, name: open.name, input },
        ...(malformed !== undefined ? { malformedInput: malformed } : {}),
      });
    }
  }
}

/** vLLM and DeepSeek send `reasoning_content`; Ollama and newer vLLM send `reasoning`. */
function reasoningOf(delta: ChatCompletionChunk.Choice.Delta): string | undefined {
  const extra = delta as { reasoning_content?: unknown; reasoning?: unknown };
  if (typeof extra.reasoning_content === 'string' && extra.reasoning_content) return extra.reasoning_content;
  if (typeof extra.reasoning === 'string' && extra.reasoning) return extra.reasoning;
  return undefined;
}

function parseToolInput(raw: string): { input: Record<string, unknown>; malformed?: string } {
  if (raw.trim() === '') return { input: {} };
  const input = parseJsonObject(raw);
  // Unreadable input goes back to the engine as it came, so the model can be told.
  return input ? { input } : { input: {}, malformed: raw };
}

function toUsage(usage: NonNullable<ChatCompletionChunk['usage']>): Usage {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    inputTokens: Math.max(0, (usage.prompt_tokens ?? 0) - cached),
    outputTokens: usage.completion_tokens ?? 0,
    cacheReadInputTokens: cached,
    cacheCreationInputTokens: 0,
  };
}
