/**
 * What the engine keeps of each event the query loop yields, besides showing it: the cost and
 * usage of every model call (its transcript line comes from the cost tracker's listener), the
 * transcript, permission denials (for the result), API notices for the host, and the
 * PostSampling hook.
 */
import type { HookRunner } from '../hooks/types';
import type { CostTracker } from '../model/cost';
import type { TranscriptSink } from '../session/transcript-writer';
import type { ToolNotification } from '../tools/context';
import { apiNotices } from './api-notices';
import type { QueryEvent } from './query-types';
import type { SDKPermissionDenial } from './sdk-messages';

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
