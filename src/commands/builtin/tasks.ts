/** /tasks: the session's background shells with their status, age and the last line they printed. */
import { lastOutputLine } from '../../interactive/shell-tail';
import { shellLabel, shellStatusText } from '../../tools/builtin/bash/describe-shell';
import type { LocalCommand } from '../types';

function elapsed(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60
    ? `${s}s`
    : s < 3600
      ? `${Math.floor(s / 60)}m ${s % 60}s`
      : `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

export const tasksCommand: LocalCommand = {
  kind: 'local',
  name: 'tasks',
  aliases: ['bashes'],
  description: 'List the background shells with their status and last output line',
  async run(_args, host) {
    const shells = host.backgroundShells();
    if (shells.length === 0) return { kind: 'text', text: 'No background shells in this session.' };
    const now = Date.now();
    const lines = await Promise.all(
      shells.map(async (shell) => {
        const time = elapsed((shell.endedAt ?? now) - shell.startedAt);
        const last = await lastOutputLine(shell.outputPath);
        const tail = last === '' ? '' : `\n    ${last.length > 120 ? `${last.slice(0, 119)}…` : last}`;
        return `${shellLabel(shell)}: ${shellStatusText(shell)}, ${time}${tail}`;
      }),
    );
    const running = shells.filter((s) => s.status === 'running').length;
    return { kind: 'text', text: [`Background shells (${running} running):`, ...lines].join('\n') };
  },
};
