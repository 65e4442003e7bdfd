/**
 * How one model call of the query loop ended (see model-attempt.ts). Each kind of ending carries
 * the one `finish…()` that completes it, so the loop's phases cannot drain tools, answer calls or
 * release withheld blocks in the wrong order; finishing a call twice throws.
 */
import type { StopReason, Usage } from '../model/types';
import type { AssistantMessage, Message } from '../session/messages';
import type { ToolUseContext } from '../tools/context';
import type { QueryEvent } from './query-types';

export type ResponseStop = { reason: StopReason; usage: Usage };

/** What a tool turn adds: history in order, and the state the calls left behind. */
export type ToolTurnResult = {
  /** The response's block messages, then the tool results and the messages tools added. */
  messages: Message[];
  /** The tool context after every call's context update, in the model's order (Bash's `cd`). */
  context: ToolUseContext;
  /** Set when a hook stopped the turn from going on. */
  preventContinuation: { stopReason: string } | undefined;
};

/** How a model call ended, each with the one way to complete it. */
export type AttemptEnd =
  /** The user interrupted before the response was complete. */
  | {
      type: 'aborted';
      /**
       * Yields the usage that streamed, an aborted message with what had not been shown, and the
       * tool results (running calls that block an interrupt finish; queued ones are answered);
       * returns the messages for history.
       */
      finishAbort(): AsyncGenerator<QueryEvent, Message[]>;
    }
  /** The call failed. */
  | {
      type: 'failed';
      error: unknown;
      /** Drops the tool calls; each tool_use already shown gets an error result saying why. */
      finishError(): AsyncGenerator<QueryEvent, void>;
    }
  /** The response asked for tools. */
  | {
      type: 'tool_use';
      stop: ResponseStop;
      /** Yields every tool result as it comes; returns the turn's history and tool state. */
      finishToolTurn(): AsyncGenerator<QueryEvent, ToolTurnResult>;
    }
  /**
   * The response ended without tool calls. Nothing runs, so a recovery may drop it unseen by not
   * finishing it.
   */
  | {
      type: 'answer';
      stop: ResponseStop;
      /** The text the model wrote (for stop hooks). */
      text: string;
      /** Yields the withheld block messages, with the final usage; returns them for history. */
      finishAnswer(): Generator<QueryEvent, AssistantMessage[]>;
    };

export type AbortedEnd = Extract<AttemptEnd, { type: 'aborted' }>;
export type FailedEnd = Extract<AttemptEnd, { type: 'failed' }>;
export type ToolUseEnd = Extract<AttemptEnd, { type: 'tool_use' }>;
export type AnswerEnd = Extract<AttemptEnd, { type: 'answer' }>;
