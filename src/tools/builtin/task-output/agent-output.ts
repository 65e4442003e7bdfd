/** TaskOutput for a background agent: its status, progress summary, result and new output. */
import type { AgentTaskInfo } from '../../../agents/background/types';
import type { ToolUseContext } from '../../context';
import { truncateMiddle } from '../bash/output';
import { agentLabel, agentStatusText } from '../shared/background-tasks';

export type AgentTaskOutput = {
  task_id: string;
  task_type: 'local_agent';
  status: AgentTaskInfo['status'];
  description: string;
  agent_type: string;
  prompt: string;
  /** The latest 3–5 word progress summary while it runs. */
  progress?: string;
  /** The final text of its last finished run. */
  result?: string;
  error?: string;
  /** Output lines since the previous call (shortened in the middle when huge). */
  output: string;
  outputFile: string;
  usage: AgentTaskInfo['usage'];
};

export async function agentTaskOutput(
  agent: AgentTaskInfo,
  context: ToolUseContext,
): Promise<AgentTaskOutput> {
  const output = await context.services.agentTasks.readNewOutput(agent.id);
  return {
    task_id: agent.id,
    task_type: 'local_agent',
    status: agent.status,
    description: agent.description,
    agent_type: agent.agentType,
    prompt: agent.prompt,
    ...(agent.progress !== undefined ? { progress: agent.progress } : {}),
    ...(agent.result !== undefined ? { result: agent.result } : {}),
    ...(agent.error !== undefined ? { error: agent.error } : {}),
    output: truncateMiddle(output, context.services.settings.bashOutputMaxChars, agent.outputPath),
    outputFile: agent.outputPath,
    usage: agent.usage,
  };
}

export function agentOutputText(task: AgentTaskOutput, waited: string): string {
  const label = agentLabel({ id: task.task_id, description: task.description });
  const lines = [`Background agent ${label}: ${agentStatusText(task)}${waited}.`];
  if (task.status === 'completed' || task.status === 'failed') {
    const { totalTokens, toolUses, durationMs } = task.usage;
    lines.push(`Result:\n${task.result || '(no text)'}`);
    lines.push(`(${totalTokens} tokens, ${toolUses} tool uses, ${Math.round(durationMs / 1000)}s)`);
  }
  lines.push(task.output === '' ? '(no new output)' : `New output:\n${task.output.replace(/\n+$/, '')}`);
  lines.push(`Full output file: ${task.outputFile}`);
  return lines.join('\n');
}
