export { enterWorktreeTool } from './enter-worktree';
export { exitWorktreeTool } from './exit-worktree';
