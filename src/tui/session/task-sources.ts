/**
 * The sources of the /tasks view for a session's services: the background shells now. Background
 * agents join here as one more `TaskSource` (interactive/task-board.ts) over their task registry.
 */
import { shellTaskSource } from '../../interactive/shell-tasks';
import type { TaskSource } from '../../interactive/task-board';
import type { SessionServices } from '../../tools/session-services';

export function sessionTaskSources(services: SessionServices | undefined): TaskSource[] {
  return services ? [shellTaskSource(services.shells)] : [];
}
