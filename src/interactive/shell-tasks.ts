/** The Bash tool's background shells as a /tasks source (interactive/task-board.ts). */
import { shellDescription, shellStatusText } from '../tools/builtin/bash/describe-shell';
import type { BackgroundShells } from '../tools/builtin/bash/shells';
import type { TaskSource } from './task-board';

export function shellTaskSource(shells: Pick<BackgroundShells, 'list' | 'stop'>): TaskSource {
  return {
    list: () =>
      shells.list().map((shell) => ({
        id: shell.id,
        kind: 'shell',
        title: shellDescription(shell),
        status: shell.status,
        statusText: shellStatusText(shell),
        startedAt: shell.startedAt,
        ...(shell.endedAt !== undefined ? { endedAt: shell.endedAt } : {}),
        outputPath: shell.outputPath,
      })),
    stop: (id) => shells.stop(id),
  };
}
