/**
 * What every tool call gets: where it runs, how to stop, what it may touch, and the shared state
 * of the conversation it belongs to.
 */

import type { HookRunner } from '../hooks/types';
import type { EffortChoice } from '../model/effort';
import type { PermissionMode, ToolPermissionContext } from '../permissions/types';
import type { Message } from '../session/messages';
import type { ReadFileState } from './read-file-state';
import type { SessionServices } from './session-services';
import type { Tool } from './tool';

export type TodoItem = {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  activeForm: string;
};

/** Conversation-wide state that tools read and update (the UI renders it). */
export type AppState = {
  todos: TodoItem[];
};

export const initialAppState = (): AppState => ({ todos: [] });

/**
 * Something a tool wants the user to see: shown by the UI, logged headless. With `forModel`, the
 * model is told too (in those words) at its next turn boundary.
 */
export type ToolNotification = {
  level: 'info' | 'warning' | 'error';
  message: string;
  toolUseId?: string;
  forModel?: string;
};

export type ToolUseContext = {
  /** The working directory tools resolve relative paths against (Bash's `cd` may move it). */
  cwd: string;
  /**
   * The project root: cwd at start, or the worktree EnterWorktree moved the loop into. Paths under
   * it (or an added directory) are "inside".
   */
  projectRoot: string;
  abortSignal: AbortSignal;
  /** The pool the model sees this turn. */
  tools: readonly Tool[];
  readFileState: ReadFileState;
  getAppState(): AppState;
  setAppState(update: (state: AppState) => AppState): void;
  sessionId: string;
  /** A folder for this session's files: persisted large results, background shell output. */
  sessionDir: string;
  /** Set when running inside a subagent. */
  agentId?: string;
  /** The id of the tool_use this call answers (set by the runner for the call's own context). */
  toolUseId?: string;
  model: string;
  /**
   * The effort this loop's requests ask for, and who chose it (an agent's or skill's own effort
   * replaces the session's while it runs, unless `--effort` pinned it); absent: the model's default.
   */
  effort?: EffortChoice;
  /**
   * The rules and mode this call runs under, read when it is needed: a mode switched mid-turn
   * applies to the next decision, and a subagent's loop answers with its own.
   */
  getPermissionContext(): ToolPermissionContext;
  /**
   * Switches the mode of the loop this call runs in (EnterPlanMode, ExitPlanMode);
   * `before-plan` goes back to the mode in force when plan mode was entered. Returns the mode now
   * in force. The next decision and the next request's tool list follow it.
   */
  switchPermissionMode(to: PermissionMode | 'before-plan'): PermissionMode;
  hooks: HookRunner;
  /** The conversation so far (read-only for tools). */
  messages: readonly Message[];
  notify(notification: ToolNotification): void;
  /** Environment for child processes (process env + settings env). */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * What the session owns besides the conversation (background shells, caches, costs, the
   * settings tools read); shared by every loop of the session, never by two sessions.
   */
  services: SessionServices;
};
