/**
 * /tasks: the session's background shells with their status, age and the last line they printed,
 * and its background agents with their status (a running agent's progress summary), age and the
 * first line of a finished one's result. The REPL opens its live view (tui/views/tasks-view.tsx);
 * the text is for hosts without one.
 */
import type { AgentTaskInfo } from '../../agents/background/types';
import { lastOutputLine } from '../../interactive/shell-tail';
import { formatTaskElapsed } from '../../interactive/task-board';
import { shellLabel, shellStatusText } from '../../tools/builtin/bash/describe-shell';
import type { BackgroundShellInfo } from '../../tools/builtin/bash/shells';
import { agentLabel, agentStatusText } from '../../tools/builtin/shared/background-tasks';
import type { LocalCommand } from '../types';

const clip = (line: string) => (line.length > 120 ? `${line.slice(0, 119)}…` : line);
const tail = (line: string) => (line === '' ? '' : `\n    ${clip(line)}`);

async function shellLines(shells: readonly BackgroundShellInfo[], now: number): Promise<string[]> {
  const running = shells.filter((s) => s.status === 'running').length;
  const lines = await Promise.all(
    shells.map(async (shell) => {
      const time = formatTaskElapsed((shell.endedAt ?? now) - shell.startedAt);
      return `${shellLabel(shell)}: ${shellStatusText(shell)}, ${time}${tail(await lastOutputLine(shell.outputPath))}`;
    }),
  );
  return [`Background shells (${running} running):`, ...lines];
}

function agentLines(agents: readonly AgentTaskInfo[], now: number): string[] {
  const running = agents.filter((a) => a.status === 'running' || a.status === 'pending').length;
  const lines = agents.map((agent) => {
    const time = formatTaskElapsed((agent.endedAt ?? now) - agent.startedAt);
    const result = agent.status === 'completed' ? ((agent.result ?? '').trim().split('\n')[0] ?? '') : '';
    return `${agentLabel(agent)}: ${agentStatusText(agent)}, ${time}${tail(result)}`;
  });
  return [`Background agents (${running} running):`, ...lines];
}

export const tasksCommand: LocalCommand = {
  kind: 'local',
  name: 'tasks',
  aliases: ['bashes'],
  description: 'The background shells and agents, live: status, running time, latest line; stop one with k',
  async run(_args, host) {
    const shells = host.backgroundShells();
    const agents = host.backgroundAgents();
    if (shells.length === 0 && agents.length === 0)
      return { kind: 'view', view: 'tasks', text: 'No background shells or agents in this session.' };
    const now = Date.now();
    const sections = [
      ...(shells.length > 0 ? [(await shellLines(shells, now)).join('\n')] : []),
      ...(agents.length > 0 ? [agentLines(agents, now).join('\n')] : []),
    ];
    return { kind: 'view', view: 'tasks', text: sections.join('\n\n') };
  },
};
