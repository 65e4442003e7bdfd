/**
 * How background agents are named to the model and the user (TaskOutput, TaskStop, SendMessage,
 * /tasks), and the one message for an id that names no background task of either kind.
 */
import type { AgentTaskInfo } from '../../../agents/background/types';
import type { BackgroundShellInfo } from '../bash/shells';

export function agentLabel(agent: Pick<AgentTaskInfo, 'id' | 'name' | 'description'>): string {
  return `${agent.id}${agent.name ? ` "${agent.name}"` : ''} (${agent.description})`;
}

/** "running (Reading the parser)", "completed", "failed: <why>", "killed". */
export function agentStatusText(agent: Pick<AgentTaskInfo, 'status' | 'progress' | 'error'>): string {
  if (agent.status === 'running' || agent.status === 'pending')
    return agent.progress ? `${agent.status} (${agent.progress})` : agent.status;
  if (agent.status === 'failed' && agent.error) return `failed: ${agent.error}`;
  return agent.status;
}

/** The error text for an id that is neither a shell nor an agent, listing those that exist. */
export function unknownTaskMessage(
  id: string,
  shells: readonly BackgroundShellInfo[],
  agents: readonly AgentTaskInfo[],
): string {
  const known = [
    shells.length > 0 ? `Known background shells: ${shells.map((s) => s.id).join(', ')}.` : '',
    agents.length > 0 ? `Known background agents: ${agents.map(agentLabel).join(', ')}.` : '',
  ].filter(Boolean);
  return `No background task with id ${id}.${known.length > 0 ? ` ${known.join(' ')}` : ' No background tasks were started in this session.'}`;
}
