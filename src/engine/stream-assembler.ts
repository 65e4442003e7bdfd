/**
 * Turns one model response's normalized stream events into AssistantMessages, one per finished
 * content block, all sharing the response's message id and request id (as the SDK frames them).
 * It also keeps the text of blocks still in progress, so an interrupt can keep what had arrived.
 */
import { randomUUID } from 'node:crypto';
import {
  type AssistantContentBlock,
  emptyUsage,
  type StopReason,
  type StreamEvent,
  type TextBlock,
  type Usage,
} from '../model/types';
import type { AssistantMessage } from '../session/messages';

type MessageStart = Extract<StreamEvent, { type: 'message_start' }>;

export function createAssistantMessage(
  content: AssistantContentBlock[],
  meta: {
    id: string;
    model: string;
    usage?: Usage;
    stopReason?: StopReason | null;
    requestId?: string | undefined;
  },
  extra: Partial<Pick<AssistantMessage, 'aborted' | 'apiError'>> = {},
): AssistantMessage {
  const message: AssistantMessage = {
    type: 'assistant',
    uuid: randomUUID(),
    timestamp: new Date().toISOString(),
    message: {
      id: meta.id,
      model: meta.model,
      role: 'assistant',
      content,
      stop_reason: meta.stopReason ?? null,
      stop_sequence: null,
      usage: meta.usage ?? emptyUsage(),
    },
    ...extra,
  };
  if (meta.requestId !== undefined) message.requestId = meta.requestId;
  return message;
}

export class StreamAssembler {
  private start: MessageStart | undefined;
  /** Text of blocks that have started but not stopped, by stream index. */
  private readonly openText = new Map<number, string>();

  constructor(private readonly model: string) {}

  get messageId(): string {
    return this.start?.messageId ?? '';
  }

  /** Feeds one event; returns the message for a block that just finished. */
  apply(event: StreamEvent): AssistantMessage | undefined {
    switch (event.type) {
      case 'message_start':
        this.start = event;
        this.openText.clear();
        return undefined;
      case 'block_start':
        if (event.block.type === 'text') this.openText.set(event.index, '');
        return undefined;
      case 'text_delta':
        this.openText.set(event.index, (this.openText.get(event.index) ?? '') + event.text);
        return undefined;
      case 'block_stop':
        this.openText.delete(event.index);
        return this.messageFor([event.block]);
      default:
        return undefined;
    }
  }

  /** A message of this response for the given blocks (usage as known at message_start). */
  messageFor(content: AssistantContentBlock[], extra?: Partial<Pick<AssistantMessage, 'aborted'>>) {
    return createAssistantMessage(
      content,
      {
        id: this.start?.messageId ?? `msg_local_${randomUUID()}`,
        model: this.start?.model ?? this.model,
        usage: this.start ? { ...this.start.usage } : emptyUsage(),
        requestId: this.start?.requestId,
      },
      extra,
    );
  }

  /**
   * Text that had arrived in blocks not yet finished. Thinking and tool_use blocks in progress
   * are left out: a thinking block without its signature and a tool call with half its input
   * would both be rejected when the history is sent back.
   */
  partialText(): TextBlock[] {
    return [...this.openText.entries()]
      .sort(([a], [b]) => a - b)
      .filter(([, text]) => text !== '')
      .map(([, text]) => ({ type: 'text', text }));
  }

  /** Forgets the attempt (after `stream_reset`). */
  reset(): void {
    this.start = undefined;
    this.openText.clear();
  }
}
