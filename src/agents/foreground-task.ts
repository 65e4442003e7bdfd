/**
 * A worker the caller waits for (a foreground Agent call, a forked skill or command), reported
 * as a task: its start and end go out as the call's progress, which the turn converter makes the
 * stream-json task frames (engine/foreground-task-frames.ts). A run that throws is reported as
 * failed before the error goes on.
 */

import type { QueryEvent } from '../engine/query-types';
import { type SubagentTaskProgress, subagentProgress } from '../engine/subagent-progress';
import type { ToolProgress } from '../tools/tool';
import type { AgentRunResult } from './types';

export type ReportedTask = {
  /** The call the frames nest under (the Agent or Skill tool_use, or a typed command's own id). */
  toolUseId: string;
  agentId: string;
  agentType: string;
  description: string;
  prompt: string;
  onProgress: (progress: ToolProgress) => void;
  now?: () => number;
};

/** Runs `run` between its task's start and end reports; `onEvent` forwards the worker's messages. */
export async function runAsTask(
  task: ReportedTask,
  run: (onEvent: (event: QueryEvent) => void) => Promise<AgentRunResult>,
): Promise<AgentRunResult> {
  const now = task.now ?? Date.now;
  const startedAt = now();
  const report = (data: SubagentTaskProgress) => task.onProgress({ toolUseId: task.toolUseId, data });
  report({
    kind: 'subagent_task',
    phase: 'started',
    agentId: task.agentId,
    agentType: task.agentType,
    description: task.description,
    prompt: task.prompt,
    startedAt,
  });
  const onEvent = (event: QueryEvent) => {
    if (event.type === 'message')
      task.onProgress({
        toolUseId: task.toolUseId,
        data: subagentProgress(task.agentId, task.agentType, event),
      });
  };
  let result: AgentRunResult;
  try {
    result = await run(onEvent);
  } catch (error) {
    const endedAt = now();
    report({
      kind: 'subagent_task',
      phase: 'ended',
      agentId: task.agentId,
      status: 'failed',
      summary: `Agent "${task.description}" failed`,
      error: (error as Error).message,
      endedAt,
      usage: { totalTokens: 0, toolUses: 0, durationMs: endedAt - startedAt },
      outputFile: '',
    });
    throw error;
  }
  const status = result.endReason === 'completed' ? 'completed' : isStopped(result) ? 'stopped' : 'failed';
  report({
    kind: 'subagent_task',
    phase: 'ended',
    agentId: task.agentId,
    status,
    summary: `Agent "${task.description}" ${ENDINGS[status]}`,
    ...(result.endMessage ? { error: result.endMessage } : {}),
    endedAt: now(),
    usage: { totalTokens: result.totalTokens, toolUses: result.toolUses, durationMs: result.durationMs },
    outputFile: result.transcriptPath ?? '',
  });
  return result;
}

const ENDINGS = { completed: 'finished', failed: 'failed', stopped: 'was stopped' } as const;

const isStopped = (result: AgentRunResult) =>
  result.endReason === 'aborted_streaming' || result.endReason === 'aborted_tools';
