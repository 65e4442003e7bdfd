/**
 * Turns the loop's events into SDK frames for one turn, in the order the real CLI writes them:
 * a content block's `assistant` frame comes before that block's `content_block_stop` stream event.
 */
import type { QueryEvent } from './query-types';
import { newUuid, toRawStreamEvents, toSdkAssistant, toSdkSystemNotice, toSdkUser } from './sdk-convert';
import type { SDKMessage, SDKStreamEvent } from './sdk-messages';

export class TurnConverter {
  /** The text of the last assistant response with text, for `result.result`. */
  lastAssistantText = '';
  /** Distinct model responses seen this turn. */
  responses = 0;
  private lastAssistantId: string | undefined;
  private lastResponseId: string | undefined;
  private heldBlockStop: SDKStreamEvent | undefined;

  constructor(
    private readonly sessionId: string,
    private readonly includePartialMessages: boolean,
    private readonly parentToolUseId: string | null = null,
  ) {}

  *convert(event: QueryEvent): Generator<SDKMessage> {
    switch (event.type) {
      case 'stream_event': {
        if (!this.includePartialMessages) return;
        yield* this.flush();
        for (const raw of toRawStreamEvents(event.event)) {
          const frame: SDKStreamEvent = {
            type: 'stream_event',
            event: raw,
            parent_tool_use_id: this.parentToolUseId,
            session_id: this.sessionId,
            uuid: newUuid(),
          };
          if (raw.type === 'content_block_stop') this.heldBlockStop = frame;
          else yield frame;
        }
        return;
      }
      case 'message': {
        const message = event.message;
        if (message.type === 'assistant') {
          yield toSdkAssistant(message, this.sessionId, this.parentToolUseId);
          yield* this.flush();
          this.trackText(message.message.id, message.message.content);
        } else {
          yield* this.flush();
          if (message.type === 'user') yield toSdkUser(message, this.sessionId, this.parentToolUseId);
          else yield toSdkSystemNotice(message, this.sessionId);
        }
        return;
      }
      default:
        return;
    }
  }

  /** Emits a held stream event; call at the end of a turn. */
  *flush(): Generator<SDKMessage> {
    if (this.heldBlockStop) {
      const frame = this.heldBlockStop;
      this.heldBlockStop = undefined;
      yield frame;
    }
  }

  private trackText(messageId: string, content: readonly { type: string; text?: string }[]): void {
    const text = content
      .filter((b) => b.type === 'text')
      .map((b) => b.text ?? '')
      .join('');
    if (messageId !== this.lastResponseId) {
      this.responses++;
      this.lastResponseId = messageId;
    }
    if (!text) return;
    // Blocks of one response arrive as separate frames; the result is the whole response's text.
    this.lastAssistantText = messageId === this.lastAssistantId ? this.lastAssistantText + text : text;
    this.lastAssistantId = messageId;
  }
}
