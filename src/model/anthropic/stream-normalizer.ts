/**
 * Raw Messages API stream events → Yoke's StreamEvents. One instance per response; it keeps the
 * open blocks so that `block_stop` can carry the finished block.
 */
import type {
  Usage as ApiUsage,
  MessageDeltaUsage,
  RawContentBlockDeltaEvent,
  RawContentBlockStartEvent,
  RawMessageStreamEvent,
} from '@anthropic-ai/sdk/resources/messages';
import { isJsonObject, parseJsonObject } from '../../lib/json-object';
import {
  type AssistantContentBlock,
  emptyUsage,
  type StopReason,
  type StreamEvent,
  type Usage,
} from '../types';

type OpenBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; json: string; startInput: Record<string, unknown> };

export class AnthropicStreamNormalizer {
  /** True once `message_stop` arrived: anything short of that is a truncated response. */
  completed = false;
  private readonly blocks = new Map<number, OpenBlock>();
  private startUsage: Usage = emptyUsage();
  private deltaUsage: MessageDeltaUsage | undefined;
  private stopReason: StopReason | null = null;
  private stopSequence: string | null = null;

  constructor(private readonly requestId?: string) {}

  *push(event: RawMessageStreamEvent): Generator<StreamEvent> {
    switch (event.type) {
      case 'message_start': {
        this.startUsage = fromApiUsage(event.message.usage);
        yield {
          type: 'message_start',
          messageId: event.message.id,
          model: event.message.model,
          ...(this.requestId ? { requestId: this.requestId } : {}),
          usage: { ...this.startUsage },
        };
        return;
      }
      case 'content_block_start':
        yield* this.start(event);
        return;
      case 'content_block_delta':
        yield* this.delta(event);
        return;
      case 'content_block_stop': {
        const block = this.blocks.get(event.index);
        if (!block) return;
        this.blocks.delete(event.index);
        yield finish(event.index, block);
        return;
      }
      case 'message_delta':
        this.stopReason = event.delta.stop_reason;
        this.stopSequence = event.delta.stop_sequence;
        this.deltaUsage = event.usage;
        return;
      case 'message_stop':
        this.completed = true;
        yield {
          type: 'message_stop',
          stopReason: this.stopReason ?? 'end_turn',
          stopSequence: this.stopSequence,
          usage: this.finalUsage(),
        };
        return;
    }
  }

  private *start(event: RawContentBlockStartEvent): Generator<StreamEvent> {
    const { index, content_block: block } = event;
    switch (block.type) {
      case 'text':
        this.blocks.set(index, { type: 'text', text: block.text });
        yield { type: 'block_start', index, block: { type: 'text' } };
        if (block.text) yield { type: 'text_delta', index, text: block.text };
        return;
      case 'thinking':
        this.blocks.set(index, { type: 'thinking', thinking: block.thinking, signature: block.signature });
        yield { type: 'block_start', index, block: { type: 'thinking' } };
        if (block.thinking) yield { type: 'thinking_delta', index, thinking: block.thinking };
        return;
      case 'redacted_thinking':
        this.blocks.set(index, { type: 'redacted_thinking', data: block.data });
        yield { type: 'block_start', index, block: { type: 'redacted_thinking', data: block.data } };
        return;
      case 'tool_use':
        this.blocks.set(index, {
          type: 'tool_use',
          id: block.id,
          name: block.name,
          json: '',
          startInput: isJsonObject(block.input) ? block.input : {},
        });
        yield { type: 'block_start', index, block: { type: 'tool_use', id: block.id, name: block.name } };
        return;
      default:
        // Server-side tool blocks: Yoke never offers server tools, so none of their events are kept.
        return;
    }
  }

  private *delta(event: RawContentBlockDeltaEvent): Generator<StreamEvent> {
    const { index, delta } = event;
    const block = this.blocks.get(index);
    if (!block) return;
    // Deltas are matched to their block kind; citation deltas have no place in Yoke's blocks.
    if (delta.type === 'text_delta' && block.type === 'text') {
      block.text += delta.text;
      yield { type: 'text_delta', index, text: delta.text };
    } else if (delta.type === 'thinking_delta' && block.type === 'thinking') {
      block.thinking += delta.thinking;
      yield { type: 'thinking_delta', index, thinking: delta.thinking };
    } else if (delta.type === 'signature_delta' && block.type === 'thinking') {
      block.signature += delta.signature;
      yield { type: 'signature_delta', index, signature: delta.signature };
    } else if (delta.type === 'input_json_delta' && block.type === 'tool_use') {
      block.json += delta.partial_json;
      yield { type: 'input_json_delta', index, partialJson: delta.partial_json };
    }
  }

  /** message_delta carries the final output count; input and cache counts may be null there. */
  private finalUsage(): Usage {
    const delta = this.deltaUsage;
    const start = this.startUsage;
    return {
      inputTokens: delta?.input_tokens ?? start.inputTokens,
      outputTokens: delta?.output_tokens ?? start.outputTokens,
      cacheReadInputTokens: delta?.cache_read_input_tokens ?? start.cacheReadInputTokens,
      cacheCreationInputTokens: delta?.cache_creation_input_tokens ?? start.cacheCreationInputTokens,
    };
  }
}

function finish(index: number, block: OpenBlock): StreamEvent {
  if (block.type !== 'tool_use') return { type: 'block_stop', index, block: { ...block } };
  const { id, name, json, startInput } = block;
  const finished: AssistantContentBlock = { type: 'tool_use', id, name, input: startInput };
  if (json.trim() === '') return { type: 'block_stop', index, block: finished };
  const parsed = parseJsonObject(json);
  if (parsed) return { type: 'block_stop', index, block: { ...finished, input: parsed } };
  return { type: 'block_stop', index, block: { ...finished, input: {} }, malformedInput: json };
}

function fromApiUsage(usage: ApiUsage): Usage {
  return {
    inputTokens: usage.input_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
    cacheReadInputTokens: usage.cache_read_input_tokens ?? 0,
    cacheCreationInputTokens: usage.cache_creation_input_tokens ?? 0,
  };
}
