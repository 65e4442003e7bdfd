/**
 * `run_in_background: true` on the Agent tool: the worker is registered with the session's
 * background agents and started, and the call returns `async_launched` at once. When a run ends on
 * its own, its `<task-notification>` goes into the parent's queue through the call's `notify`, so
 * the parent reads it at its next turn boundary and never mid-stream; the worker never knows.
 */
import { MessageQueue } from '../../engine/message-queue';
import type { ToolUseContext } from '../../tools/context';
import type {
  AsyncLaunchedOutput,
  BackgroundAgentLauncher,
  BackgroundLaunchRequest,
} from '../background-launch';
import { newAgentId, type RunAgentOptions, runAgent } from '../run-agent';
import type { AgentRunResult } from '../types';
import type { AgentLauncher, AgentRunOutcome, AgentTaskInfo } from './types';

export function outcomeOf(result: AgentRunResult): AgentRunOutcome {
  return {
    status: result.endReason === 'completed' ? 'completed' : 'failed',
    finalText: result.finalText,
    ...(result.endMessage !== undefined ? { error: result.endMessage } : {}),
    messages: result.messages,
    usage: { totalTokens: result.totalTokens, toolUses: result.toolUses, costUsd: result.costUsd },
  };
}

/** What the parent reads when a run ends: one line for the user, the notification for the model. */
function notifyParent(context: ToolUseContext, task: AgentTaskInfo, notification: string): void {
  context.notify({
    level: task.status === 'completed' ? 'info' : 'warning',
    message: `Background agent ${task.id} (${task.description}) ${task.status}.`,
    toolUseId: task.toolUseId,
    forModel: notification,
  });
}

/** More of runAgent's options (a worktree's cwd, extra tools), passed through unchanged. */
export type ExtraRunOptions = Partial<Omit<RunAgentOptions, 'definition' | 'prompt' | 'parent' | 'signal'>>;

export function launchBackgroundAgent(
  launch: BackgroundLaunchRequest,
  runOptions: ExtraRunOptions = {},
  run: typeof runAgent = runAgent,
): AsyncLaunchedOutput {
  const context = launch.parent;
  const agentId = runOptions.agentId ?? newAgentId();
  const launcher: AgentLauncher = (request) => {
    const inbox = new MessageQueue();
    const done = run({
      ...runOptions,
      definition: launch.definition,
      prompt: request.prompt,
      priorMessages: request.priorMessages,
      // Not the turn's signal: a background agent outlives the turn that started it.
      parent: context,
      signal: request.signal,
      agentId,
      ...(launch.model !== undefined ? { model: launch.model } : {}),
      ...(launch.effort !== undefined ? { effort: launch.effort } : {}),
      ...(launch.budget !== undefined ? { budget: launch.budget } : {}),
      // Coordinator mode's worker tool set applies to background workers too.
      ...(launch.toolFilter !== undefined ? { toolFilter: launch.toolFilter } : {}),
      parentToolUseId: launch.toolUseId,
      onMessage: (message) => {
        runOptions.onMessage?.(message);
        request.onMessage(message);
      },
      inbox,
    }).then(outcomeOf);
    return { inbox, done };
  };
  const task = context.services.agentTasks.launch({
    id: agentId,
    ...(launch.name !== undefined ? { name: launch.name } : {}),
    description: launch.description,
    prompt: launch.prompt,
    agentType: launch.definition.agentType,
    toolUseId: launch.toolUseId,
    sessionDir: context.sessionDir,
    launcher,
    onFinished: (ended, notification) => notifyParent(context, ended, notification),
  });
  return {
    status: 'async_launched',
    agentId: task.id,
    description: task.description,
    prompt: task.prompt,
    outputFile: task.outputPath,
    message: launchedText(task.id, task.outputPath),
  };
}

/** The tool_result text of a launch: the id, how to continue it, and not to guess meanwhile. */
function launchedText(agentId: string, outputFile: string): string {
  return [
    `The agent is working in the background. agentId: ${agentId}`,
    `To give it more instructions while it runs or after it finishes, use SendMessage with to: '${agentId}'.`,
    'You will be notified automatically when it finishes. Do not guess or make up its result; continue with other work, or end your turn if you have nothing else to do.',
    `Its progress is written to ${outputFile} (TaskOutput with task_id '${agentId}' shows what is new).`,
  ].join('\n');
}

/** The session's launcher for the Agent tool (`AgentRuntime.background`). */
export const backgroundAgents: BackgroundAgentLauncher = {
  launch: async (request) => launchBackgroundAgent(request),
};
