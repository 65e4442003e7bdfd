import type { AnyTool } from '../../../tools/tool';
import { enterWorktreeTool } from './enter-worktree';
import { exitWorktreeTool } from './exit-worktree';

export { enterWorktreeTool, exitWorktreeTool };

/** The worktree tools, for the session's built-ins (the composition root adds them, as it adds Agent). */
export const WORKTREE_TOOLS: readonly AnyTool[] = [enterWorktreeTool, exitWorktreeTool];
