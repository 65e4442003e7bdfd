/**
 * The one `result` frame that ends every turn: its subtype, `errors`, usage and cost.
 */
import { randomUUID } from 'node:crypto';
import type { CostTotal, CostTracker } from '../model/cost';
import { ModelError } from '../model/errors';
import type { Usage } from '../model/types';
import type { Terminal } from './query-types';
import { toSdkUsage } from './sdk-convert';
import type { SDKPermissionDenial, SDKResultMessage, SDKSystemNoticeMessage } from './sdk-messages';
import type { StructuredOutputCapture } from './structured-output';

export type ResultInput = {
  sessionId: string;
  terminal: Terminal;
  startedAt: number;
  cost: CostTracker;
  /** The tracker's totals when the turn began: usage is per turn, cost cumulative. */
  costAtStart: CostTotal;
  denials: readonly SDKPermissionDenial[];
  lastAssistantText: string;
  /** Model responses in this turn (`num_turns`). */
  numTurns: number;
  structuredOutput?: StructuredOutputCapture;
  /** `--max-budget-usd`, so a spent budget's message can name it. */
  maxBudgetUsd?: number;
  now?: number;
};

/** Dollars for messages: cents at least, and up to four decimals for small sums (`$0.50`, `$0.0012`). */
export function formatUsd(usd: number): string {
  return `$${usd.toFixed(4).replace(/0{1,2}$/, '')}`;
}

function usageSince(total: Usage, start: Usage): Usage {
  return {
    inputTokens: total.inputTokens - start.inputTokens,
    outputTokens: total.outputTokens - start.outputTokens,
    cacheReadInputTokens: total.cacheReadInputTokens - start.cacheReadInputTokens,
    cacheCreationInputTokens: total.cacheCreationInputTokens - start.cacheCreationInputTokens,
  };
}

/** The text a failed turn reports, one readable line. */
export function terminalErrorText(terminal: Terminal): string {
  // The SDK's hosts match this exact wording.
  if (terminal.reason === 'max_turns') return `Reached maximum number of turns (${terminal.turnCount})`;
  if (terminal.message) return terminal.message;
  switch (terminal.reason) {
    case 'aborted_streaming':
    case 'aborted_tools':
      return 'The turn was interrupted by the user.';
    case 'budget_exhausted':
      return 'Reached the maximum budget for this session.';
    case 'hook_stopped':
    case 'stop_hook_prevented':
      return 'A hook stopped the turn.';
    default:
      return terminal.error?.message ?? `The turn ended: ${terminal.reason}`;
  }
}

export function buildResultMessage(input: ResultInput): SDKResultMessage {
  const { terminal } = input;
  const total = input.cost.total();
  const common = {
    type: 'result' as const,
    num_turns: input.numTurns,
    duration_ms: (input.now ?? Date.now()) - input.startedAt,
    duration_api_ms: total.apiDurationMs - input.costAtStart.apiDurationMs,
    stop_reason: null,
    total_cost_usd: Number(total.costUsd.toFixed(6)),
    usage: toSdkUsage(usageSince(total.usage, input.costAtStart.usage)),
    modelUsage: input.cost.byModel(),
    permission_denials: [...input.denials],
    api_error_status: terminal.error instanceof ModelError ? (terminal.error.status ?? null) : null,
    session_id: input.sessionId,
    uuid: randomUUID(),
  };

  // A hook's `continue: false` is the user's own stop, not a failure (compat-surface §2.5: the
  // result is empty, terminal_reason says why); `hookStopNotice` tells the user the reason.
  if (terminal.reason === 'hook_stopped') {
    return { ...common, subtype: 'success', is_error: false, result: '', terminal_reason: 'hook_stopped' };
  }

  if (terminal.reason === 'structured_output_retry_exhausted') {
    return {
      ...common,
      subtype: 'error_max_structured_output_retries',
      is_error: true,
      errors: [terminalErrorText(terminal)],
      terminal_reason: 'structured_output_retry_exhausted',
    };
  }

  if (terminal.reason === 'completed') {
    const structured = input.structuredOutput?.provided ? input.structuredOutput : undefined;
    return {
      ...common,
      subtype: 'success',
      is_error: false,
      stop_reason: 'end_turn',
      result: structured ? JSON.stringify(structured.value) : input.lastAssistantText,
      ...(structured ? { structured_output: structured.value } : {}),
      terminal_reason: 'completed',
    };
  }

  const errors = [
    terminal.reason === 'budget_exhausted' && input.maxBudgetUsd !== undefined
      ? `Reached the maximum budget of ${formatUsd(input.maxBudgetUsd)} (--max-budget-usd); this session has cost ${formatUsd(total.costUsd)}.`
      : terminalErrorText(terminal),
  ];
  const subtype =
    terminal.reason === 'max_turns'
      ? 'error_max_turns'
      : terminal.reason === 'budget_exhausted'
        ? 'error_max_budget_usd'
        : 'error_during_execution';
  return { ...common, subtype, is_error: true, errors, result: errors[0], terminal_reason: terminal.reason };
}

/** The result of a command answered without the model that failed: an error with its text. */
export function commandErrorResult(result: SDKResultMessage, text: string): SDKResultMessage {
  return { ...result, subtype: 'error_during_execution', is_error: true, errors: [text], result: text };
}

/**
 * What a hook's `continue: false` stopped, for the user (its `stopReason`), written just before
 * the result; the text and json printers show it on stderr. None for any other ending.
 */
export function hookStopNotices(terminal: Terminal, sessionId: string): SDKSystemNoticeMessage[] {
  if (terminal.reason !== 'hook_stopped') return [];
  const notice: SDKSystemNoticeMessage = {
    type: 'system',
    subtype: 'informational',
    level: 'warning',
    tag: 'hook_stopped',
    content: terminalErrorText(terminal),
    session_id: sessionId,
    uuid: randomUUID(),
  };
  return [notice];
}
