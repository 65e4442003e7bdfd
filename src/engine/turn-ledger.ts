/**
 * What the engine does with each event the query loop yields during a turn. First it keeps what
 * the session needs of it: the cost and usage of every model call (its transcript line comes from
 * the cost tracker's listener), the transcript, permission denials (for the result), API notices
 * for the host, and the PostSampling hook. Then it shows it: the hook frames the event caused,
 * then the event's own SDK frames (TurnConverter).
 */
import type { HookRunner } from '../hooks/types';
import type { CostTracker } from '../model/cost';
import type { TranscriptSink } from '../session/transcript-writer';
import type { ToolNotification } from '../tools/context';
import { apiNotices } from './api-notices';
import type { QueryEvent, Terminal } from './query-types';
import type { SDKMessage, SDKPermissionDenial } from './sdk-messages';
import type { TurnConverter } from './turn-converter';

export type TurnLedger = {
  costTracker: CostTracker;
  transcript: TranscriptSink | undefined;
  hooks: HookRunner;
  /** The session's denials so far; the result reports them all. */
  permissionDenials: SDKPermissionDenial[];
  onNotification: ((notification: ToolNotification) => void) | undefined;
};

export async function recordLoopEvent(ledger: TurnLedger, event: QueryEvent, signal: AbortSignal) {
  for (const notice of apiNotices(event)) ledger.onNotification?.(notice);
  if (event.type === 'model_usage') {
    // The tracker's listener writes the transcript's cost line (QueryEngine), side calls' too.
    ledger.costTracker.add(event.model, event.usage, event.apiDurationMs);
    await ledger.hooks.notify('PostSampling', { model: event.model, usage: event.usage }, signal);
  } else if (event.type === 'message') {
    ledger.transcript?.append(event.message);
  } else if (event.type === 'permission_denied') {
    ledger.permissionDenials.push({
      tool_name: event.toolName,
      tool_use_id: event.toolUseId,
      tool_input: event.toolInput,
    });
  }
}

/** Turns that ended on an API failure rather than a normal stop: `StopFailure` hooks fire. */
const STOP_FAILURE_REASONS = new Set(['model_error', 'prompt_too_long', 'image_error']);

/**
 * Runs the turn's loop to its end: each event is recorded, then the hook frames queued meanwhile
 * and the event's frames are yielded. Returns the loop's Terminal, after the StopFailure hooks of
 * a turn that ended on an API failure.
 */
export async function* runLoop(
  loop: AsyncGenerator<QueryEvent, Terminal>,
  turn: {
    ledger: TurnLedger;
    converter: TurnConverter;
    /** Hook frames queued since the last call (HookFrameQueue). */
    hookFrames: () => Iterable<SDKMessage>;
    signal: AbortSignal;
  },
): AsyncGenerator<SDKMessage, Terminal> {
  const { ledger, converter, signal } = turn;
  let terminal: Terminal;
  while (true) {
    const next = await loop.next();
    if (next.done) {
      terminal = next.value;
      break;
    }
    await recordLoopEvent(ledger, next.value, signal);
    yield* turn.hookFrames();
    yield* converter.convert(next.value);
  }
  yield* converter.flush();
  if (STOP_FAILURE_REASONS.has(terminal.reason)) {
    await ledger.hooks.notify(
      'StopFailure',
      { error: terminal.reason, error_details: terminal.message ?? null },
      signal,
    );
  }
  return terminal;
}
