/**
 * The keys each frame type carries in the real CLI's stream-json / json output, taken from the
 * captures in shared/reference/stream-json-samples/, and a comparison helper. Keys that only
 * describe the other product (fast mode, its UI, its analytics and timing diagnostics) are listed
 * in PRODUCT_ONLY and not expected from Yoke; every other key must be present on Yoke's frame.
 */

export const SAMPLE_KEYS: Record<string, readonly string[]> = {
  'system/init': [
    'additional_directories',
    'agents',
    'analytics_disabled',
    'apiKeySource',
    'capabilities',
    'claude_code_version',
    'cwd',
    'fast_mode_disabled_reason',
    'fast_mode_state',
    'mcp_servers',
    'memory_paths',
    'messaging_socket_path',
    'model',
    'original_cwd',
    'output_style',
    'per_turn_effort_active',
    'permissionMode',
    'plugins',
    'product_feedback_disabled',
    'session_id',
    'skills',
    'slash_commands',
    'subtype',
    'terminal_slash_commands',
    'tools',
    'type',
    'ultrathink_available',
    'ultrathink_typed_raises',
    'uuid',
    'view_mode',
  ],
  assistant: ['message', 'parent_tool_use_id', 'request_id', 'session_id', 'timestamp', 'type', 'uuid'],
  'assistant.message': [
    'content',
    'context_management',
    'id',
    'model',
    'role',
    'stop_reason',
    'stop_sequence',
    'type',
    'usage',
  ],
  user: [
    'message',
    'parent_tool_use_id',
    'session_id',
    'timestamp',
    'tool_result_meta',
    'tool_use_result',
    'type',
    'uuid',
  ],
  'user.message': ['content', 'role'],
  stream_event: [
    'api_message_id',
    'event',
    'parent_tool_use_id',
    'session_id',
    'thinking_display',
    'ttft_ms',
    'type',
    'uuid',
  ],
  'system/permission_denied': [
    'message',
    'session_id',
    'subtype',
    'tool_name',
    'tool_use_id',
    'type',
    'uuid',
  ],
  result: [
    'api_error_status',
    'duration_api_ms',
    'duration_ms',
    'fast_mode_disabled_reason',
    'fast_mode_state',
    'first_content_frame_ms',
    'is_error',
    'modelUsage',
    'model_usage_since_last_result',
    'num_turns',
    'permission_denials',
    'queued_turn_count',
    'result',
    'result_index',
    'safety_stops',
    'session_id',
    'stop_reason',
    'subagent_stats',
    'subtype',
    'terminal_reason',
    'time_to_request_ms',
    'total_cost_usd',
    'ttft_ms',
    'ttft_stream_ms',
    'type',
    'usage',
    'uuid',
  ],
  'result.usage': [
    'cache_creation',
    'cache_creation_input_tokens',
    'cache_read_input_tokens',
    'fallback_credit',
    'inference_geo',
    'input_tokens',
    'iterations',
    'output_tokens',
    'output_tokens_details',
    'server_tool_use',
    'service_tier',
    'speed',
  ],
  'result.modelUsage': [
    'cacheCreationEphemeral1hInputTokens',
    'cacheCreationEphemeral5mInputTokens',
    'cacheCreationInputTokens',
    'cacheReadInputTokens',
    'canonicalModel',
    'contextWindow',
    'costBasis',
    'costUSD',
    'inputTokens',
    'maxOutputTokens',
    'outputTokens',
    'provider',
    'thinkingTokens',
    'webSearchRequests',
  ],
};

/** Keys of the other product that no client of Yoke can rely on. */
export const PRODUCT_ONLY: Record<string, readonly string[]> = {
  'system/init': [
    'analytics_disabled',
    'product_feedback_disabled',
    'memory_paths',
    'messaging_socket_path',
    'fast_mode_state',
    'fast_mode_disabled_reason',
    'per_turn_effort_active',
    'ultrathink_available',
    'ultrathink_typed_raises',
    'view_mode',
    'terminal_slash_commands',
    'original_cwd',
  ],
  // tool_use_result is only present when the tool returned structured output (checked separately).
  user: ['tool_result_meta', 'tool_use_result'],
  // Only on message_start, and about the other product's timing and thinking UI.
  stream_event: ['thinking_display', 'ttft_ms'],
  result: [
    'fast_mode_state',
    'fast_mode_disabled_reason',
    'subagent_stats',
    'safety_stops',
    'ttft_ms',
    'ttft_stream_ms',
    'time_to_request_ms',
    'first_content_frame_ms',
    'queued_turn_count',
    'result_index',
    'model_usage_since_last_result',
  ],
  'result.usage': [
    'cache_creation',
    'inference_geo',
    'iterations',
    'speed',
    'output_tokens_details',
    'fallback_credit',
  ],
  'result.modelUsage': [
    'thinkingTokens',
    'cacheCreationEphemeral5mInputTokens',
    'cacheCreationEphemeral1hInputTokens',
    'canonicalModel',
    'provider',
    'costBasis',
  ],
};

export type Frame = Record<string, unknown>;

/** `system/init`, `assistant`, `stream_event`, `result`, … */
export function frameKind(frame: Frame): string {
  return frame.type === 'system' ? `system/${String(frame.subtype)}` : String(frame.type);
}

function missingFrom(value: unknown, kind: string): string[] {
  const expected = (SAMPLE_KEYS[kind] ?? []).filter((key) => !(PRODUCT_ONLY[kind] ?? []).includes(key));
  const keys = value && typeof value === 'object' ? Object.keys(value) : [];
  return expected.filter((key) => !keys.includes(key)).map((key) => `${kind}.${key}`);
}

/**
 * The sample keys a Yoke frame lacks (`[]` when it has them all), including nested message,
 * usage and modelUsage objects. A frame kind the samples do not show has no expectations.
 */
export function missingSampleKeys(frame: Frame): string[] {
  const kind = frameKind(frame);
  const missing = missingFrom(frame, kind);
  if (kind === 'assistant' || kind === 'user') missing.push(...missingFrom(frame.message, `${kind}.message`));
  if (kind === 'result') {
    missing.push(...missingFrom(frame.usage, 'result.usage'));
    for (const usage of Object.values((frame.modelUsage ?? {}) as Record<string, unknown>)) {
      missing.push(...missingFrom(usage, 'result.modelUsage'));
    }
  }
  return missing;
}
