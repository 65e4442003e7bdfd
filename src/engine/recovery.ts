/**
 * The pieces of the loop's error recovery that are policy rather than control flow: how far
 * max_tokens escalates, how often the model is asked to resume, the texts it and the user get,
 * and how a failed model call maps to a terminal reason.
 */
import { randomUUID } from 'node:crypto';
import { MediaError, ModelError, OverloadedError, PromptTooLongError } from '../model/errors';
import { maxOutputTokensFor } from '../model/models';
import {
  createSystemMessage,
  createUserMessage,
  type SystemMessage,
  type UserMessage,
} from '../session/messages';
import type { TerminalReason } from './query-types';
import { createAssistantMessage } from './stream-assembler';

/** The one-time retry limit after a max_tokens stop (capped by the model's own maximum). */
export const ESCALATED_MAX_TOKENS = 64_000;
/** Continuation turns after a max_tokens stop before the loop gives up. */
export const MAX_OUTPUT_TOKENS_RECOVERY_LIMIT = 3;

export const INTERRUPT_MESSAGE = '[Request interrupted by user]';
export const INTERRUPT_MESSAGE_FOR_TOOL_USE = '[Request interrupted by user for tool use]';

/**
 * The most of a context window a response may take: a normal request leaves 80 % to the
 * conversation, which is where auto-compaction starts; the retry with a raised limit after a cut-off
 * response may take half. So a small window (a local model's, or one a setting declares) still
 * leaves room to send anything at all. The table's models are within these shares already.
 */
export const MAX_OUTPUT_SHARE = { default: 0.2, escalated: 0.5 } as const;

export function fitOutputToWindow(
  maxTokens: number,
  contextWindow: number,
  kind: keyof typeof MAX_OUTPUT_SHARE,
): number {
  return Math.max(1, Math.min(maxTokens, Math.floor(contextWindow * MAX_OUTPUT_SHARE[kind])));
}

/** The escalated max_tokens for a retry, or undefined when escalating would not raise it. */
export function escalatedMaxTokens(model: string, current: number): number | undefined {
  const escalated = Math.min(ESCALATED_MAX_TOKENS, maxOutputTokensFor(model));
  return escalated > current ? escalated : undefined;
}

/** The meta message that asks a truncated model to go on. */
export function outputLimitContinuationMessage(): UserMessage {
  return createUserMessage(
    'Your previous response was cut off by the output token limit. Continue exactly where it ' +
      'stopped, mid-sentence if need be. Do not apologize and do not repeat or summarize what you ' +
      'already wrote. If much remains, do it in smaller steps.',
    { isMeta: true },
  );
}

export function outputLimitErrorText(maxTokens: number, continuations: number): string {
  return (
    `The model hit its output token limit (${maxTokens} tokens) and was still cut off after ` +
    `${continuations} continuation${continuations === 1 ? '' : 's'}. Ask for a smaller piece of work.`
  );
}

export function interruptMessage(forToolUse: boolean): UserMessage {
  return createUserMessage(forToolUse ? INTERRUPT_MESSAGE_FOR_TOOL_USE : INTERRUPT_MESSAGE, { isMeta: true });
}

/**
 * How many times in one turn Stop hooks may send the model back to work (settings
 * `stopHookBlockCap`); the block after that ends the turn. A hook that blocks whatever happens
 * would otherwise loop, and spend, until the turn limit.
 */
export const DEFAULT_STOP_HOOK_BLOCK_CAP = 8;

/** Why the turn ended although a Stop hook still objected: the cap and the hook's last words. */
export function stopHookCapText(cap: number, errors: readonly string[]): string {
  return (
    `Stop hooks blocked the end of this turn ${cap + 1} times in a row; the turn ends anyway ` +
    `(at most ${cap} blocks per turn, settings key stopHookBlockCap). The last objection: ${errors.join(' ')}`
  );
}

/** The meta message that hands stop-hook objections back to the model. */
export function stopHookFeedbackMessage(errors: readonly string[]): UserMessage {
  return createUserMessage(`A stop hook objected to ending the turn:\n${errors.join('\n')}`, {
    isMeta: true,
  });
}

export function fallbackNotice(from: string, to: string, error: unknown): SystemMessage {
  return createSystemMessage(
    'model_fallback',
    `Switched to ${to} because ${from} is overloaded (${errorText(error)}).`,
    { level: 'warning', data: { from, to } },
  );
}

/** An overloaded model with no fallback configured: say how to get one next time. */
export function adviseFallbackModel(error: unknown): void {
  if (error instanceof ModelError) {
    error.withAdvice(
      'Try again later, or pass --fallback-model <model> to switch when this one is overloaded.',
    );
  }
}

/** The synthetic assistant message that shows the user why the turn failed. */
export function apiErrorMessage(text: string, model: string) {
  return createAssistantMessage(
    [{ type: 'text', text }],
    { id: `msg_error_${randomUUID()}`, model, stopReason: 'stop_sequence' },
    { apiError: text },
  );
}

export function errorText(error: unknown): string {
  if (error instanceof ModelError) return error.describe();
  if (error instanceof Error) return error.message;
  return String(error);
}

export type ModelErrorKind = 'overloaded' | 'prompt_too_long' | 'media' | 'other';

export function classifyModelError(error: unknown): ModelErrorKind {
  if (error instanceof OverloadedError) return 'overloaded';
  if (error instanceof PromptTooLongError) return 'prompt_too_long';
  if (error instanceof MediaError) return 'media';
  return 'other';
}

export const TERMINAL_FOR_ERROR: Record<ModelErrorKind, TerminalReason> = {
  overloaded: 'model_error',
  prompt_too_long: 'prompt_too_long',
  media: 'image_error',
  other: 'model_error',
};
