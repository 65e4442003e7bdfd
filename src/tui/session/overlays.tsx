/**
 * Opening the REPL's overlays: each is a view in the screen extras that closes itself when
 * answered. Kept here so run-repl.tsx only says when they open.
 */
import type { Env } from '../../config/paths';
import { listPickerSessions, type PickerSession } from '../../interactive/session-picker';
import type { TaskBoard } from '../../interactive/task-board';
import type { McpManager } from '../../mcp/manager';
import { McpView } from '../views/mcp-view';
import { SessionPicker } from '../views/session-picker';
import { TasksView } from '../views/tasks-view';
import { mcpViewActions } from './mcp-actions';
import type { ScreenExtras } from './screen-extras';

/** The resume picker over this folder's sessions (without the one running). */
export function openResumePicker(
  extras: ScreenExtras,
  options: {
    env: Env;
    cwd: string;
    excludeSessionId?: string;
    cancelMeans: string;
    onPick(session: PickerSession): void;
    onCancel(): void;
  },
): void {
  const load = () =>
    listPickerSessions({
      env: options.env,
      cwd: options.cwd,
      ...(options.excludeSessionId ? { excludeSessionId: options.excludeSessionId } : {}),
    });
  extras.show(
    <SessionPicker
      load={load}
      cancelMeans={options.cancelMeans}
      onPick={(picked) => {
        extras.close();
        options.onPick(picked);
      }}
      onCancel={() => {
        extras.close();
        options.onCancel();
      }}
    />,
  );
}

/** The live /tasks view over the session's task board. */
export function openTasksView(extras: ScreenExtras, board: TaskBoard): void {
  extras.show(<TasksView board={board} onClose={() => extras.close()} />);
}

/** The live /mcp view over the session's servers. */
export function openMcpView(extras: ScreenExtras, manager: McpManager, env: Env, cwd: string): void {
  extras.show(
    <McpView servers={manager} actions={mcpViewActions(manager, env, cwd)} onClose={() => extras.close()} />,
  );
}
