/**
 * The one line a system frame or a turn's result frame adds to the transcript, if any: notices
 * (a fallback, a compaction, a retry) and how a turn ended when it did not simply complete.
 */
import type { SDKMessage } from '../../engine/sdk-messages';

export type NoticeLine = { level: 'info' | 'warning' | 'error'; text: string };
export type TurnEndLine = { text: string; isError: boolean };

export const COMPACTED_NOTICE = 'Conversation compacted: earlier messages were summarised.';

export function systemNotice(message: Extract<SDKMessage, { type: 'system' }>): NoticeLine | undefined {
  if (message.subtype === 'informational' || message.subtype === 'model_fallback') {
    const content = typeof message.content === 'string' ? message.content : '';
    return content ? { level: message.level === 'error' ? 'error' : 'info', text: content } : undefined;
  }
  if (message.subtype === 'compact_boundary') return { level: 'info', text: COMPACTED_NOTICE };
  if (message.subtype === 'api_retry' && 'attempt' in message) {
    const seconds = Math.round(Number(message.retry_delay_ms) / 100) / 10;
    return {
      level: 'warning',
      text: `API error (${message.error}); retrying in ${seconds}s, attempt ${message.attempt}`,
    };
  }
  return undefined;
}

export function turnEnd(message: Extract<SDKMessage, { type: 'result' }>): TurnEndLine | undefined {
  if (message.terminal_reason === 'aborted_streaming' || message.terminal_reason === 'aborted_tools')
    return { text: 'Interrupted · tell the model what to do instead', isError: false };
  if (message.subtype !== 'success')
    return { text: message.errors.join('; ') || message.subtype, isError: true };
  if (message.is_error && message.result) return { text: message.result, isError: true };
  return undefined;
}
