/**
 * Background work as the stream-json host sees it (agent-sdk-protocol §5.7): each background agent
 * and background shell opens with `system/task_started`, reports `task_progress` while it runs (a
 * tool it called, a new progress summary) and ends with a `task_updated` status patch and a
 * `task_notification`. A background agent's own messages are streamed too, nested under the Agent
 * call that launched it (`parent_tool_use_id`, `agent_id`), as a foreground agent's are.
 *
 * The frames come from the session's registries (`AgentTasks`, `BackgroundShells`), not from a
 * turn: a worker outlives the turn that started it, so they are written whenever they happen, also
 * between turns and while `-p` waits at the end.
 */
import { newUuid } from '../../engine/sdk-convert';
import type { SDKMessage, SDKTaskMessage, SDKTaskUsage } from '../../engine/sdk-messages';
import { TurnConverter } from '../../engine/turn-converter';
import { tallyMessage } from '../../engine/worker-tally';
import type { Message } from '../../session/messages';
import { shellDescription, shellStatusText } from '../../tools/builtin/bash/describe-shell';
import type { BackgroundShellInfo } from '../../tools/builtin/bash/shells';
import type { SessionServices } from '../../tools/session-services';
import type { AgentTasks } from './agent-tasks';
import { notificationSummary } from './notification';
import type { AgentTaskInfo, AgentTaskStatus } from './types';

export type TaskFrameWriter = (frame: SDKMessage) => void;

type Ended = 'completed' | 'failed' | 'killed';

/** One run of a background agent as its frames have shown it so far. */
type AgentRunView = {
  runs: number;
  status: AgentTaskStatus;
  progress?: string;
  converter: TurnConverter;
  runStartedAt: number;
  /** This run's model tokens and tool calls, counted from its messages as they arrive. */
  tokens: number;
  toolUses: number;
  /** A response arrives as one message per block, all with its usage: count it once. */
  countedResponses: Set<string>;
};

/** A run id that sorts, as plain strings, in the order the runs opened. */
const runId = (taskId: string, run: number) => `${taskId}-run${String(run).padStart(4, '0')}`;

/** The SDK's notification status: a task we stopped is `stopped`. */
const notificationStatus = (status: Ended) => (status === 'killed' ? 'stopped' : status);

const isEnded = (status: string): status is Ended =>
  status === 'completed' || status === 'failed' || status === 'killed';

/**
 * Writes the task frames of the session's background agents and shells from now on; returns how
 * to stop. A host only sees what starts after the call.
 */
export function streamTaskFrames(
  services: Pick<SessionServices, 'agentTasks' | 'shells'>,
  sessionId: string,
  write: TaskFrameWriter,
): () => void {
  const agents = new AgentFrames(services.agentTasks, sessionId, write);
  const shells = new ShellFrames(sessionId, write);
  const stops = [
    services.agentTasks.subscribe((task) => agents.onTask(task)),
    services.agentTasks.subscribeMessages((task, message) => agents.onMessage(task, message)),
    services.shells.subscribe((shell) => shells.onShell(shell)),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

class AgentFrames {
  private readonly views = new Map<string, AgentRunView>();

  constructor(
    private readonly tasks: AgentTasks,
    private readonly sessionId: string,
    private readonly write: TaskFrameWriter,
  ) {}

  onTask(task: AgentTaskInfo): void {
    let view = this.views.get(task.id);
    if (task.runs > (view?.runs ?? 0) && (task.status === 'running' || task.status === 'pending')) {
      view = this.started(task);
      this.views.set(task.id, view);
    }
    if (!view) return;
    if (task.status === 'running' && task.progress !== undefined && task.progress !== view.progress) {
      view.progress = task.progress;
      this.frame({ ...this.progressFields(task, view), summary: task.progress });
    }
    if (isEnded(task.status) && view.status !== task.status) this.ended(task, task.status);
    view.status = task.status;
  }

  onMessage(task: AgentTaskInfo, message: Message): void {
    const view = this.views.get(task.id);
    if (!view) return;
    for (const frame of view.converter.convert({ type: 'message', message })) this.write(frame);
    const lastTool = tallyMessage(view, message);
    if (lastTool !== undefined) this.frame({ ...this.progressFields(task, view), last_tool_name: lastTool });
  }

  private started(task: AgentTaskInfo): AgentRunView {
    this.frame({
      type: 'system',
      subtype: 'task_started',
      task_id: task.id,
      run_id: runId(task.id, task.runs),
      tool_use_id: task.toolUseId,
      description: task.description,
      subagent_type: task.agentType,
      is_backgrounded: true,
      task_type: 'local_agent',
      prompt: task.prompt,
    });
    return {
      runs: task.runs,
      status: task.status,
      // Its frames nest under the Agent call that launched it, as a foreground worker's do.
      converter: new TurnConverter(this.sessionId, false, task.toolUseId, task.id),
      runStartedAt: this.tasks.now,
      tokens: 0,
      toolUses: 0,
      countedResponses: new Set(),
    };
  }

  private ended(task: AgentTaskInfo, status: Ended): void {
    this.frame({
      type: 'system',
      subtype: 'task_updated',
      task_id: task.id,
      run_id: runId(task.id, task.runs),
      patch: {
        status,
        ...(task.endedAt !== undefined ? { end_time: task.endedAt } : {}),
        ...(status !== 'completed' && task.error !== undefined ? { error: task.error } : {}),
      },
    });
    this.frame({
      type: 'system',
      subtype: 'task_notification',
      task_id: task.id,
      run_id: runId(task.id, task.runs),
      tool_use_id: task.toolUseId,
      status: notificationStatus(status),
      output_file: task.outputPath,
      summary: notificationSummary(task),
      usage: {
        total_tokens: task.usage.totalTokens,
        tool_uses: task.usage.toolUses,
        duration_ms: task.usage.durationMs,
      },
    });
  }

  /** The fields of a task_progress frame: the finished runs' usage plus this run's so far. */
  private progressFields(task: AgentTaskInfo, view: AgentRunView) {
    const usage: SDKTaskUsage = {
      total_tokens: task.usage.totalTokens + view.tokens,
      tool_uses: task.usage.toolUses + view.toolUses,
      duration_ms: task.usage.durationMs + Math.max(0, this.tasks.now - view.runStartedAt),
    };
    return {
      type: 'system' as const,
      subtype: 'task_progress' as const,
      task_id: task.id,
      run_id: runId(task.id, task.runs),
      tool_use_id: task.toolUseId,
      description: task.description,
      subagent_type: task.agentType,
      usage,
    };
  }

  private frame(fields: DistributiveOmit<SDKTaskMessage, 'uuid' | 'session_id'>): void {
    this.write({ ...fields, uuid: newUuid(), session_id: this.sessionId } as SDKTaskMessage);
  }
}

class ShellFrames {
  private readonly seen = new Map<string, BackgroundShellInfo['status']>();

  constructor(
    private readonly sessionId: string,
    private readonly write: TaskFrameWriter,
  ) {}

  onShell(shell: BackgroundShellInfo): void {
    const before = this.seen.get(shell.id);
    this.seen.set(shell.id, shell.status);
    const envelope = { uuid: newUuid(), session_id: this.sessionId };
    const toolUse = shell.toolUseId !== undefined ? { tool_use_id: shell.toolUseId } : {};
    if (before === undefined && shell.status === 'running') {
      this.write({
        type: 'system',
        subtype: 'task_started',
        task_id: shell.id,
        ...toolUse,
        description: shellDescription(shell),
        is_backgrounded: true,
        task_type: 'local_bash',
        ...envelope,
      });
      return;
    }
    // A shell that started before the host subscribed has no task of its own on the wire.
    if (before === undefined || !isEnded(shell.status) || before === shell.status) return;
    this.write({
      type: 'system',
      subtype: 'task_updated',
      task_id: shell.id,
      patch: {
        status: shell.status,
        ...(shell.endedAt !== undefined ? { end_time: shell.endedAt } : {}),
        ...(shell.status === 'failed' ? { error: shellStatusText(shell) } : {}),
      },
      ...envelope,
    });
    this.write({
      type: 'system',
      subtype: 'task_notification',
      task_id: shell.id,
      ...toolUse,
      status: notificationStatus(shell.status),
      output_file: shell.outputPath,
      summary: `Background command "${shellDescription(shell)}" ${shellStatusText(shell)}`,
      uuid: newUuid(),
      session_id: this.sessionId,
    });
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
