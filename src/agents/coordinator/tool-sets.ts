/**
 * Who gets which tools in coordinator mode (seed 000 §3.5.3, seed 003 §4.2). The coordinator only
 * delegates: Agent to start a worker, SendMessage to continue one, TaskStop to stop one (plus
 * StructuredOutput, which the engine adds for `--json-schema`). Workers get the tools of an
 * asynchronous worker: files, shell, search, web, code tools, to-dos, skills, tool search and
 * worktrees, and the session's MCP tools — never the tools that start, steer or stop other
 * agents, and none that ask the user (a worker has nobody to ask).
 */
import type { AnyTool } from '../../tools/tool';

export const COORDINATOR_TOOL_NAMES: ReadonlySet<string> = new Set(['Agent', 'SendMessage', 'TaskStop']);

export const WORKER_TOOL_NAMES: ReadonlySet<string> = new Set([
  'Bash',
  'Read',
  'Write',
  'Edit',
  'MultiEdit',
  'NotebookEdit',
  'Glob',
  'Grep',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
  'Skill',
  'ToolSearch',
  'EnterWorktree',
  'ExitWorktree',
  'lsp',
  'lsp_rename',
  'ast_grep',
  'ast_edit',
  'resolve',
]);

/** The coordinator's own pool: the session's, cut to the delegation tools. */
export function coordinatorPool(pool: readonly AnyTool[]): AnyTool[] {
  return pool.filter((tool) => COORDINATOR_TOOL_NAMES.has(tool.name));
}

/** Whether a worker of the coordinator is offered `tool` (after its definition's own filters). */
export function isWorkerTool(tool: AnyTool): boolean {
  return WORKER_TOOL_NAMES.has(tool.name) || tool.isMcp;
}
