/**
 * Frames the protocol layer writes itself, beside the engine's messages: session state changes
 * (agent-sdk-protocol §5.6) and the result of a turn the engine could not run at all (the host needs one `result`
 * per turn, or a string-prompt query hangs).
 */
import { randomUUID } from 'node:crypto';
import type { JsonObject } from './ndjson';

export type SessionState = 'idle' | 'running' | 'requires_action';

export function sessionStateFrame(state: SessionState, sessionId: string, hostOnly: boolean): JsonObject {
  const frame: JsonObject = {
    type: 'system',
    subtype: 'session_state_changed',
    state,
    uuid: randomUUID(),
    session_id: sessionId,
  };
  // The SDK swallows host-only frames, so its users never see this bookkeeping.
  if (hostOnly) frame.sdk_host_only = true;
  return frame;
}

export function failedTurnResult(sessionId: string, message: string, startedAt: number): JsonObject {
  return {
    type: 'result',
    subtype: 'error_during_execution',
    is_error: true,
    errors: [message],
    result: message,
    num_turns: 0,
    duration_ms: Date.now() - startedAt,
    duration_api_ms: 0,
    stop_reason: null,
    total_cost_usd: 0,
    usage: {
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
      service_tier: 'standard',
    },
    modelUsage: {},
    permission_denials: [],
    api_error_status: null,
    terminal_reason: 'model_error',
    session_id: sessionId,
    uuid: randomUUID(),
  };
}
