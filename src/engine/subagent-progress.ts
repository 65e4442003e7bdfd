/**
 * A worker's events travel to the parent's output as the Agent tool's progress: the parent's
 * loop forwards them as `tool_progress`, and the turn converter shows the worker's messages as
 * frames nested under the Agent call (`parent_tool_use_id`), the way the SDK expects them.
 */
import type { QueryEvent } from './query-types';

export type SubagentProgress = {
  kind: 'subagent_event';
  agentId: string;
  agentType: string;
  event: QueryEvent;
};

export function subagentProgress(agentId: string, agentType: string, event: QueryEvent): SubagentProgress {
  return { kind: 'subagent_event', agentId, agentType, event };
}

export function isSubagentProgress(data: Record<string, unknown>): data is SubagentProgress {
  return data.kind === 'subagent_event' && typeof data.agentId === 'string' && typeof data.event === 'object';
}
