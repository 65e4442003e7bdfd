/**
 * The texts and message shapes every tool outcome ends in. Kept apart from the runner so the
 * executor's synthetic results (interrupted, cancelled) read exactly like the runner's own.
 */
import type { ToolResultBlock, ToolResultContent } from '../model/types';
import { createToolResultMessage, type UserMessage } from '../session/messages';
import { ToolError } from './tool';

export const INTERRUPTED_MESSAGE = 'Interrupted by user: the tool call was stopped before it finished.';
export const NOT_RUN_INTERRUPTED_MESSAGE = 'Interrupted by user: the tool call was not run.';
/** Why a call was stopped when a sibling whose failure cancels the others failed (`failureCancelsSiblings`). */
export const siblingFailedMessage = (toolName: string): string =>
  `Cancelled: a sibling ${toolName} command in the same response failed, so this call was stopped.`;

/** The text the model gets for a thrown error: a ToolError speaks for itself, others get a prefix. */
export function errorText(error: unknown): string {
  if (error instanceof ToolError) return error.messageForModel;
  if (error instanceof Error) return `Error: ${error.message}`;
  return `Error: ${String(error)}`;
}

/**
 * Why a call was aborted. Whoever aborts with a ToolError as the reason (the executor does for
 * sibling failures) chooses the model's message; a bare abort is the user's interrupt.
 */
export function abortText(signal: AbortSignal): string {
  return signal.reason instanceof ToolError ? signal.reason.messageForModel : INTERRUPTED_MESSAGE;
}

/** Appends paragraphs (hook context, hook errors) after a result without losing its blocks. */
export function appendText(content: ToolResultContent, texts: readonly string[]): ToolResultContent {
  if (texts.length === 0) return content;
  if (typeof content === 'string') return [content, ...texts].filter((t) => t.length > 0).join('\n\n');
  return [...content, ...texts.map((text) => ({ type: 'text' as const, text }))];
}

export function toolResultMessage(
  toolUseId: string,
  content: ToolResultContent,
  isError: boolean,
  toolUseResult: unknown,
): UserMessage {
  const block: ToolResultBlock = { type: 'tool_result', tool_use_id: toolUseId, content };
  if (isError) block.is_error = true;
  return createToolResultMessage(block, toolUseResult);
}

/** A failed call: the model and the structured result both carry the same explanation. */
export function errorResultMessage(toolUseId: string, text: string): UserMessage {
  return toolResultMessage(toolUseId, text, true, text);
}

/** The tool_result block of a message built by this module, if it is one. */
export function toolResultBlockOf(message: UserMessage): ToolResultBlock | undefined {
  const content = message.message.content;
  if (typeof content === 'string') return undefined;
  return content.find((block): block is ToolResultBlock => block.type === 'tool_result');
}
