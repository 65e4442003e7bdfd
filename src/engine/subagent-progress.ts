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

/**
 * The start and end of a worker the parent waits for (a foreground Agent call, a forked skill or
 * command): the turn converter makes them the `task_started` / `task_updated` /
 * `task_notification` frames a background agent's registry makes for it.
 */
export type SubagentTaskProgress =
  | {
      kind: 'subagent_task';
      phase: 'started';
      agentId: string;
      agentType: string;
      description: string;
      prompt: string;
      /** Epoch ms, for the frames' durations. */
      startedAt: number;
    }
  | {
      kind: 'subagent_task';
      phase: 'ended';
      agentId: string;
      status: 'completed' | 'failed' | 'stopped';
      summary: string;
      /** Why it did not complete, for `task_updated.patch.error`. */
      error?: string;
      endedAt: number;
      usage: { totalTokens: number; toolUses: number; durationMs: number };
      /** The worker's transcript, when the session keeps one ('' otherwise). */
      outputFile: string;
    };

export function isSubagentTaskProgress(data: Record<string, unknown>): data is SubagentTaskProgress {
  return data.kind === 'subagent_task' && typeof data.agentId === 'string';
}
