/**
 * /tasks: the session's background shells with their status, age and the last line they printed.
 * The REPL opens its live view (tui/views/tasks-view.tsx); the text is for hosts without one.
 */
import { lastOutputLine } from '../../interactive/shell-tail';
import { formatTaskElapsed } from '../../interactive/task-board';
import { shellLabel, shellStatusText } from '../../tools/builtin/bash/describe-shell';
import type { LocalCommand } from '../types';

export const tasksCommand: LocalCommand = {
  name: 'tasks',
  aliases: ['bashes'],
  description: 'The background tasks, live: status, running time, last output line; stop one with k',
  async run(_args, host) {
    const shells = host.backgroundShells();
    if (shells.length === 0)
      return { kind: 'view', view: 'tasks', text: 'No background shells in this session.' };
    const now = Date.now();
    const lines = await Promise.all(
      shells.map(async (shell) => {
        const time = formatTaskElapsed((shell.endedAt ?? now) - shell.startedAt);
        const last = await lastOutputLine(shell.outputPath);
        const tail = last === '' ? '' : `\n    ${last.length > 120 ? `${last.slice(0, 119)}…` : last}`;
        return `${shellLabel(shell)}: ${shellStatusText(shell)}, ${time}${tail}`;
      }),
    );
    const running = shells.filter((s) => s.status === 'running').length;
    return {
      kind: 'view',
      view: 'tasks',
      text: [`Background shells (${running} running):`, ...lines].join('\n'),
    };
  },
};
