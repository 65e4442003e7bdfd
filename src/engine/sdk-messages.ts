/**
 * The wire shapes of the messages a conversation produces, compatible with the Agent SDK's
 * stream-json protocol (shared/reference/agent-sdk-protocol.md §5). They live in the engine
 * layer because the QueryEngine yields them; the headless printers and the stream-json protocol
 * only serialize them.
 */
import type { ModelUsage } from '../model/cost';
import type { AssistantContentBlock, StopReason, UserMessageParam } from '../model/types';
import type { PermissionMode } from '../permissions/types';
import type { TerminalReason } from './query-types';

/** Messages-API usage in snake_case, as the SDK reports it. */
export type SDKUsage = {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  server_tool_use: { web_search_requests: number; web_fetch_requests: number };
  service_tier: 'standard';
};

/** One entry of `modelUsage`: the cost tracker keeps it in exactly the wire shape. */
export type SDKModelUsage = ModelUsage;

type Envelope = { uuid: string; session_id: string };

export type SDKSystemInitMessage = Envelope & {
  type: 'system';
  subtype: 'init';
  cwd: string;
  model: string;
  permissionMode: PermissionMode;
  tools: string[];
  /** `source`: where the server is configured (project, user, local, dynamic, sdk). */
  mcp_servers: { name: string; status: string; source?: string }[];
  slash_commands: string[];
  skills: string[];
  agents: string[];
  plugins: { name: string; path: string; version?: string }[];
  apiKeySource: string;
  claude_code_version: string;
  yoke_version: string;
  output_style: string;
  capabilities: string[];
  /** Directories outside cwd the session may use (`--add-dir`). */
  additional_directories: string[];
  /**
   * Yoke's own: problems with the settings and options this session runs with (a malformed
   * rule, a clamped hook timeout, …), one line each, as also printed on stderr. Absent when none.
   */
  warnings?: string[];
};

export type SDKAssistantMessage = Envelope & {
  type: 'assistant';
  message: {
    id: string;
    type: 'message';
    role: 'assistant';
    model: string;
    content: AssistantContentBlock[];
    stop_reason: StopReason | null;
    stop_sequence: string | null;
    usage: Pick<
      SDKUsage,
      'input_tokens' | 'output_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens'
    >;
    context_management: null;
  };
  parent_tool_use_id: string | null;
  /** Set on a subagent's frames: the worker's id. */
  agent_id?: string;
  timestamp: string;
  request_id?: string;
  aborted?: true;
  error?:
    | 'authentication_failed'
    | 'rate_limit'
    | 'overloaded'
    | 'invalid_request'
    | 'server_error'
    | 'max_output_tokens'
    | 'unknown';
};

export type SDKUserMessage = Envelope & {
  type: 'user';
  message: UserMessageParam;
  parent_tool_use_id: string | null;
  /** Set on a subagent's frames: the worker's id. */
  agent_id?: string;
  timestamp: string;
  tool_use_result?: unknown;
  isReplay?: true;
  isSynthetic?: true;
};

export type SDKSystemNoticeMessage = Envelope & {
  type: 'system';
  subtype:
    | 'informational'
    | 'model_fallback'
    | 'api_retry'
    | 'compact_boundary'
    | 'status'
    | 'permission_denied';
  content?: string;
  level?: 'info' | 'warning' | 'error';
  [key: string]: unknown;
};

/** Why an API request failed, in the SDK's words (`SDKAssistantMessageError`). */
export type SDKApiErrorCategory =
  | 'authentication_failed'
  | 'billing_error'
  | 'rate_limit'
  | 'overloaded'
  | 'invalid_request'
  | 'model_not_found'
  | 'server_error'
  | 'unknown'
  | 'max_output_tokens';

/**
 * A request failed and is retried after `retry_delay_ms` (the SDK's `SDKAPIRetryMessage`).
 * `error_status` is null for failures without an HTTP response (connection, no answer in time);
 * `no_response` only when no answer came within the first-byte wait.
 */
export type SDKApiRetryMessage = Envelope & {
  type: 'system';
  subtype: 'api_retry';
  attempt: number;
  max_retries: number;
  retry_delay_ms: number;
  error_status: number | null;
  error: SDKApiErrorCategory;
  no_response?: { waited_ms: number; retry_wait_ms: number };
};

/** A hook began running (agent-sdk-protocol §5.7). */
export type SDKHookStartedMessage = Envelope & {
  type: 'system';
  subtype: 'hook_started';
  hook_id: string;
  /** The labelled event, e.g. `SessionStart:startup` or `PreToolUse:Bash`. */
  hook_name: string;
  hook_event: string;
};

/** A hook finished: what it printed and how it ended. */
export type SDKHookResponseMessage = Envelope & {
  type: 'system';
  subtype: 'hook_response';
  hook_id: string;
  hook_name: string;
  hook_event: string;
  output: string;
  stdout: string;
  stderr: string;
  exit_code?: number;
  outcome: 'success' | 'error' | 'cancelled';
};

export type SDKStreamEvent = Envelope & {
  type: 'stream_event';
  /** A Messages-API raw stream event (message_start, content_block_delta, …). */
  event: Record<string, unknown>;
  parent_tool_use_id: string | null;
  /** The id of the API message the event belongs to (as the real CLI adds). */
  api_message_id?: string;
};

export type SDKPermissionDenial = {
  tool_name: string;
  tool_use_id: string;
  tool_input: Record<string, unknown>;
};

type ResultCommon = Envelope & {
  type: 'result';
  is_error: boolean;
  num_turns: number;
  duration_ms: number;
  duration_api_ms: number;
  stop_reason: string | null;
  total_cost_usd: number;
  usage: SDKUsage;
  modelUsage: Record<string, SDKModelUsage>;
  permission_denials: SDKPermissionDenial[];
  terminal_reason: TerminalReason;
  /** The HTTP status of the API error that ended the turn, else null. */
  api_error_status: number | null;
};

export type SDKResultMessage =
  | (ResultCommon & { subtype: 'success'; result: string; structured_output?: unknown })
  | (ResultCommon & {
      subtype:
        | 'error_during_execution'
        | 'error_max_turns'
        | 'error_max_budget_usd'
        | 'error_max_structured_output_retries';
      /** Required by the SDK: it calls `errors.map()`. */
      errors: string[];
      result?: string;
    });

/** What a background task has used so far (task_progress, task_notification). */
export type SDKTaskUsage = { total_tokens: number; tool_uses: number; duration_ms: number };

/**
 * The lifecycle of a background agent (`local_agent`) or shell (`local_bash`): started, progress
 * while it runs, the status patch and the notification when it ends (agent-sdk-protocol §5.7).
 */
export type SDKTaskMessage = Envelope &
  (
    | {
        type: 'system';
        subtype: 'task_started';
        task_id: string;
        run_id?: string;
        tool_use_id?: string;
        description: string;
        subagent_type?: string;
        is_backgrounded: boolean;
        task_type: 'local_agent' | 'local_bash';
        prompt?: string;
      }
    | {
        type: 'system';
        subtype: 'task_progress';
        task_id: string;
        run_id?: string;
        tool_use_id?: string;
        description: string;
        subagent_type?: string;
        usage: SDKTaskUsage;
        last_tool_name?: string;
        summary?: string;
      }
    | {
        type: 'system';
        subtype: 'task_updated';
        task_id: string;
        run_id?: string;
        patch: {
          status?: 'pending' | 'running' | 'completed' | 'failed' | 'killed';
          description?: string;
          end_time?: number;
          error?: string;
          is_backgrounded?: boolean;
        };
      }
    | {
        type: 'system';
        subtype: 'task_notification';
        task_id: string;
        run_id?: string;
        tool_use_id?: string;
        status: 'completed' | 'failed' | 'stopped';
        output_file: string;
        summary: string;
        usage?: SDKTaskUsage;
      }
  );

/**
 * A tool still running (agent-sdk-protocol §5.7's `tool_progress`, sent with partial messages on):
 * how long it has run, and — Yoke's addition, for the interactive UI — its latest output line.
 * With `toolStartFrames` (the REPL's), every call sends one at 0 seconds when it really starts.
 */
export type SDKToolProgressMessage = Envelope & {
  type: 'tool_progress';
  tool_use_id: string;
  tool_name: string;
  parent_tool_use_id: string | null;
  elapsed_time_seconds: number;
  output_line?: string;
};

export type SDKMessage =
  | SDKSystemInitMessage
  | SDKToolProgressMessage
  | SDKTaskMessage
  | SDKAssistantMessage
  | SDKUserMessage
  | SDKSystemNoticeMessage
  | SDKApiRetryMessage
  | SDKHookStartedMessage
  | SDKHookResponseMessage
  | SDKStreamEvent
  | SDKResultMessage;
