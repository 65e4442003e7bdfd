/**
 * `run_in_background: true` on the Agent tool: the worker is registered with the session's
 * background agents and started, and the call returns `async_launched` at once. When a run ends on
 * its own, its `<task-notification>` goes into the parent's queue through the call's `notify`, so
 * the parent reads it at its next turn boundary and never mid-stream; the worker never knows.
 */
import { MessageQueue } from '../../engine/message-queue';
import type { ToolUseContext } from '../../tools/context';
import { newAgentId, type RunAgentOptions, runAgent } from '../run-agent';
import type { AgentBudget, AgentDefinition, AgentRunResult } from '../types';
import type { AgentLauncher, AgentRunOutcome, AgentTaskInfo } from './types';

export type BackgroundLaunch = {
  definition: AgentDefinition;
  prompt: string;
  description: string;
  /** Makes the agent addressable by this name too (SendMessage, TaskOutput, TaskStop). */
  name?: string;
  model?: string;
  budget?: AgentBudget;
  /** The Agent tool_use that launches it. */
  toolUseId: string;
  /** More of runAgent's options (a worktree's cwd, extra tools), passed through unchanged. */
  runOptions?: Partial<Omit<RunAgentOptions, 'definition' | 'prompt' | 'parent' | 'signal'>>;
};

/** compat-surface §1.4, Agent output `async_launched`. */
export type AsyncLaunchedOutput = {
  status: 'async_launched';
  agentId: string;
  description: string;
  prompt: string;
  outputFile: string;
  canReadOutputFile: boolean;
};

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

export function launchBackgroundAgent(
  context: ToolUseContext,
  launch: BackgroundLaunch,
  run: typeof runAgent = runAgent,
): AsyncLaunchedOutput {
  const agentId = launch.runOptions?.agentId ?? newAgentId();
  const launcher: AgentLauncher = (request) => {
    const inbox = new MessageQueue();
    const done = run({
      ...launch.runOptions,
      definition: launch.definition,
      prompt: request.prompt,
      priorMessages: request.priorMessages,
      // Not the turn's signal: a background agent outlives the turn that started it.
      parent: context,
      signal: request.signal,
      agentId,
      ...(launch.model !== undefined ? { model: launch.model } : {}),
      ...(launch.budget !== undefined ? { budget: launch.budget } : {}),
      parentToolUseId: launch.toolUseId,
      onMessage: (message) => {
        launch.runOptions?.onMessage?.(message);
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
    canReadOutputFile: true,
  };
}

/** The tool_result text of a launch: the id, how to continue it, and not to guess meanwhile. */
export function asyncLaunchedText(out: AsyncLaunchedOutput): string {
  return [
    `The agent is working in the background. agentId: ${out.agentId}`,
    `To give it more instructions while it runs or after it finishes, use SendMessage with to: '${out.agentId}'.`,
    `You will be notified automatically when it finishes. Do not guess or make up its result; continue with other work, or end your turn if you have nothing else to do.`,
    `Its progress is written to ${out.outputFile} (TaskOutput with task_id '${out.agentId}' shows what is new).`,
  ].join('\n');
}
