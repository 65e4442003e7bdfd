/**
 * Task frames for the workers a turn waits for (a foreground Agent call, a forked skill or
 * command), as a background agent gets them from its registry (agents/background/task-frames.ts):
 * `task_started` (is_backgrounded false), a `task_progress` per tool the worker calls, then
 * `task_updated` with the end status and `task_notification`. They nest under the call that
 * runs the worker (`tool_use_id`), whose messages carry the same id as `parent_tool_use_id`.
 */
import type { Message } from '../session/messages';
import { newUuid } from './sdk-convert';
import type { SDKMessage, SDKTaskMessage, SDKTaskUsage } from './sdk-messages';
import type { SubagentTaskProgress } from './subagent-progress';
import { emptyTally, tallyMessage, type WorkerTally } from './worker-tally';

type Started = Extract<SubagentTaskProgress, { phase: 'started' }>;

/** One worker as its frames have shown it so far. */
type WorkerView = WorkerTally & { started: Started };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export class ForegroundTaskFrames {
  private readonly workers = new Map<string, WorkerView>();

  constructor(private readonly sessionId: string) {}

  /** The frames of a worker's start or end, reported under the call `toolUseId`. */
  *lifecycle(toolUseId: string, progress: SubagentTaskProgress): Generator<SDKMessage> {
    if (progress.phase === 'started') {
      this.workers.set(toolUseId, { started: progress, ...emptyTally() });
      yield this.frame({
        type: 'system',
        subtype: 'task_started',
        task_id: progress.agentId,
        tool_use_id: toolUseId,
        description: progress.description,
        subagent_type: progress.agentType,
        is_backgrounded: false,
        task_type: 'local_agent',
        prompt: progress.prompt,
      });
      return;
    }
    this.workers.delete(toolUseId);
    yield this.frame({
      type: 'system',
      subtype: 'task_updated',
      task_id: progress.agentId,
      patch: {
        status: progress.status === 'stopped' ? 'killed' : progress.status,
        end_time: progress.endedAt,
        ...(progress.error !== undefined && progress.status !== 'completed' ? { error: progress.error } : {}),
      },
    });
    yield this.frame({
      type: 'system',
      subtype: 'task_notification',
      task_id: progress.agentId,
      tool_use_id: toolUseId,
      status: progress.status,
      output_file: progress.outputFile,
      summary: progress.summary,
      usage: {
        total_tokens: progress.usage.totalTokens,
        tool_uses: progress.usage.toolUses,
        duration_ms: progress.usage.durationMs,
      },
    });
  }

  /** A worker's message: a `task_progress` when it calls tools, its tokens counted either way. */
  *message(toolUseId: string, message: Message, now: number): Generator<SDKMessage> {
    const view = this.workers.get(toolUseId);
    if (!view) return;
    const lastTool = tallyMessage(view, message);
    if (lastTool === undefined) return;
    const usage: SDKTaskUsage = {
      total_tokens: view.tokens,
      tool_uses: view.toolUses,
      duration_ms: Math.max(0, now - view.started.startedAt),
    };
    yield this.frame({
      type: 'system',
      subtype: 'task_progress',
      task_id: view.started.agentId,
      tool_use_id: toolUseId,
      description: view.started.description,
      subagent_type: view.started.agentType,
      usage,
      last_tool_name: lastTool,
    });
  }

  private frame(fields: DistributiveOmit<SDKTaskMessage, 'uuid' | 'session_id'>): SDKMessage {
    return { ...fields, uuid: newUuid(), session_id: this.sessionId } as SDKTaskMessage;
  }
}
