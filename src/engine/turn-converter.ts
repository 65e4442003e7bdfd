/**
 * Turns the loop's events into SDK frames for one turn, in the order the real CLI writes them:
 * a content block's `assistant` frame comes before that block's `content_block_stop` stream event.
 * The loop releases a response's block messages late (at its first tool_use, or at its end), so
 * a `content_block_stop` and every stream event after it wait until that block's `assistant`
 * frame has been written; blocks are never shown interleaved.
 */

import { ForegroundTaskFrames } from './foreground-task-frames';
import type { QueryEvent } from './query-types';
import {
  newUuid,
  toRawStreamEvents,
  toSdkApiRetry,
  toSdkAssistant,
  toSdkSystemNotice,
  toSdkUser,
} from './sdk-convert';
import type {
  SDKMessage,
  SDKStreamEvent,
  SDKSystemNoticeMessage,
  SDKToolProgressMessage,
} from './sdk-messages';
import { isSubagentProgress, isSubagentTaskProgress } from './subagent-progress';

export class TurnConverter {
  /**
   * The text of the last assistant response with text, for `result.result`. A response that
   * continues one cut off by max_tokens adds to it: the answer is both parts.
   */
  lastAssistantText = '';
  /** Distinct model responses seen this turn. */
  responses = 0;
  private lastAssistantId: string | undefined;
  private lastResponseId: string | undefined;
  /** Stream events waiting for an assistant frame; `held[0]` is always a content_block_stop. */
  private held: SDKStreamEvent[] = [];
  private apiMessageId: string | undefined;
  /** Set when the loop asked the model to continue a truncated response; the next one extends it. */
  private continuationPending = false;
  private continuing = false;
  /** One converter per running subagent, by the Agent call's id: its frames nest under it. */
  private readonly nested = new Map<string, TurnConverter>();
  /** The task frames of the workers this turn waits for. */
  private readonly tasks: ForegroundTaskFrames;

  constructor(
    private readonly sessionId: string,
    private readonly includePartialMessages: boolean,
    private readonly parentToolUseId: string | null = null,
    private readonly agentId: string | undefined = undefined,
    /** Send each call's start as a tool_progress frame at 0 seconds (QueryEngineConfig.toolStartFrames). */
    private readonly toolStartFrames = false,
  ) {
    this.tasks = new ForegroundTaskFrames(sessionId);
  }

  *convert(event: QueryEvent): Generator<SDKMessage> {
    switch (event.type) {
      case 'stream_event': {
        // Retries are reported whether or not partial messages are on.
        if (event.event.type === 'retry') {
          yield toSdkApiRetry(event.event, this.sessionId);
          return;
        }
        if (!this.includePartialMessages) return;
        // A retried stream drops the old attempt's blocks: their assistant frames never come.
        if (event.event.type === 'stream_reset') yield* this.flush();
        if (event.event.type === 'message_start') this.apiMessageId = event.event.messageId;
        for (const raw of toRawStreamEvents(event.event)) {
          const frame: SDKStreamEvent = {
            type: 'stream_event',
            event: raw,
            parent_tool_use_id: this.parentToolUseId,
            session_id: this.sessionId,
            uuid: newUuid(),
          };
          if (this.apiMessageId) frame.api_message_id = this.apiMessageId;
          if (this.held.length > 0 || raw.type === 'content_block_stop') this.held.push(frame);
          else yield frame;
        }
        return;
      }
      case 'message': {
        const message = event.message;
        if (message.type === 'assistant') {
          const frame = toSdkAssistant(message, this.sessionId, this.parentToolUseId);
          yield this.agentId ? { ...frame, agent_id: this.agentId } : frame;
          yield* this.releaseBlock();
          this.trackText(message.message.id, message.message.content);
        } else if (message.type === 'user') {
          const frame = toSdkUser(message, this.sessionId, this.parentToolUseId);
          yield this.agentId ? { ...frame, agent_id: this.agentId } : frame;
        } else yield toSdkSystemNotice(message, this.sessionId);
        return;
      }
      case 'tool_progress': {
        const data = event.progress.data;
        const id = event.progress.toolUseId;
        if (data.type === 'output_line' && typeof data.line === 'string') {
          if (this.includePartialMessages) yield this.outputLine(id, data);
          return;
        }
        if (isSubagentTaskProgress(data)) {
          yield* this.tasks.lifecycle(id, data);
          if (data.phase === 'ended') this.nested.delete(id);
          return;
        }
        // A worker's messages (not its partial stream) nest under the Agent call that runs it.
        if (!isSubagentProgress(data) || data.event.type !== 'message') return;
        let nested = this.nested.get(id);
        if (!nested) {
          nested = new TurnConverter(this.sessionId, false, id, data.agentId);
          this.nested.set(id, nested);
        }
        yield* nested.convert(data.event);
        yield* this.tasks.message(id, data.event.message, Date.now());
        return;
      }
      case 'tool_started':
        // A tool_progress frame at 0 seconds: the call runs from now (a view starts its clock here).
        if (this.toolStartFrames) yield this.started(event.toolUseId, event.toolName);
        return;
      case 'permission_denied': {
        const frame: SDKSystemNoticeMessage = {
          type: 'system',
          subtype: 'permission_denied',
          tool_name: event.toolName,
          tool_use_id: event.toolUseId,
          message: event.decision.message,
          session_id: this.sessionId,
          uuid: newUuid(),
        };
        if (event.decision.decisionReason) frame.decision_reason_type = event.decision.decisionReason.type;
        yield frame;
        return;
      }
      case 'transition':
        if (event.transition.reason === 'max_output_tokens_recovery') this.continuationPending = true;
        return;
      default:
        return;
    }
  }

  /** A running tool's latest output line (the Bash tool's, `type: 'output_line'`) as a tool_progress frame. */
  private outputLine(toolUseId: string, data: Record<string, unknown>): SDKToolProgressMessage {
    return {
      type: 'tool_progress',
      tool_use_id: toolUseId,
      tool_name: typeof data.toolName === 'string' ? data.toolName : '',
      parent_tool_use_id: this.parentToolUseId,
      elapsed_time_seconds: typeof data.elapsedSeconds === 'number' ? data.elapsedSeconds : 0,
      output_line: data.line as string,
      uuid: newUuid(),
      session_id: this.sessionId,
    };
  }

  private started(toolUseId: string, toolName: string): SDKToolProgressMessage {
    return {
      type: 'tool_progress',
      tool_use_id: toolUseId,
      tool_name: toolName,
      parent_tool_use_id: this.parentToolUseId,
      elapsed_time_seconds: 0,
      uuid: newUuid(),
      session_id: this.sessionId,
    };
  }

  /** After a block's assistant frame: its content_block_stop and what followed, up to the next stop. */
  private *releaseBlock(): Generator<SDKMessage> {
    if (this.held.length === 0) return;
    let end = 1;
    while (end < this.held.length && this.held[end]?.event.type !== 'content_block_stop') end++;
    yield* this.held.splice(0, end);
  }

  /** Emits every held stream event; call at the end of a turn. */
  *flush(): Generator<SDKMessage> {
    yield* this.held.splice(0);
  }

  private trackText(messageId: string, content: readonly { type: string; text?: string }[]): void {
    const text = content
      .filter((b) => b.type === 'text')
      .map((b) => b.text ?? '')
      .join('');
    if (messageId !== this.lastResponseId) {
      this.responses++;
      this.lastResponseId = messageId;
      this.continuing = this.continuationPending;
      this.continuationPending = false;
    }
    if (!text) return;
    // Blocks of one response arrive as separate frames; the result is the whole response's text,
    // and a continuation's text goes on from the truncated response's.
    const extend = messageId === this.lastAssistantId || this.continuing;
    this.lastAssistantText = extend ? this.lastAssistantText + text : text;
    this.lastAssistantId = messageId;
  }
}
