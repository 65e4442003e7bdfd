/**
 * The pool a worker is offered: the session's pool cut by the definition's tier ceiling, its
 * allow-list and its deny-list. A filtered tool is absent from the schema, not denied: a read-only
 * agent cannot even ask for Write. Agent-spawning tools are left out unless the caller says a
 * worker may spawn (ordinary subagents never do).
 */
import type { AnyTool, ToolTier } from '../tools/tool';
import type { AgentDefinition } from './types';

const TIER_RANK: Record<ToolTier, number> = { read: 0, write: 1, exec: 2 };

/** The Agent tool's name and its legacy alias (rules and agent files use both). */
export const AGENT_TOOL_NAMES: ReadonlySet<string> = new Set(['Agent', 'Task']);

/** `Agent(Explore)` in a tools list names the Agent tool (its argument limits the types). */
function baseName(entry: string): string {
  const paren = entry.indexOf('(');
  return (paren === -1 ? entry : entry.slice(0, paren)).trim();
}

/**
 * Whether a list entry names the tool: its name or an alias, `Task` for Agent, or for MCP tools
 * `mcp__server`, `mcp__server__*` and `mcp__*`.
 */
export function entryNamesTool(entry: string, tool: AnyTool): boolean {
  const name = baseName(entry);
  if (name === '*') return true;
  const names = [tool.name, ...(tool.aliases ?? [])];
  if (names.includes(name)) return true;
  if (AGENT_TOOL_NAMES.has(name) && names.some((n) => AGENT_TOOL_NAMES.has(n))) return true;
  if (!tool.name.startsWith('mcp__') || !name.startsWith('mcp__')) return false;
  if (name === 'mcp__*') return true;
  const prefix = name.endsWith('__*') ? name.slice(0, -1) : `${name}__`;
  return tool.name.startsWith(prefix);
}

export type AgentPoolOptions = {
  /** Whether the worker may spawn workers itself (the coordinator's own loop); false for subagents. */
  allowSpawning?: boolean;
};

export function isAgentSpawningTool(tool: AnyTool): boolean {
  return AGENT_TOOL_NAMES.has(tool.name);
}

export function filterAgentTools(
  definition: Pick<AgentDefinition, 'tools' | 'disallowedTools' | 'maxTier'>,
  pool: readonly AnyTool[],
  options: AgentPoolOptions = {},
): AnyTool[] {
  const ceiling = TIER_RANK[definition.maxTier];
  return pool.filter((tool) => {
    if (TIER_RANK[tool.tier] > ceiling) return false;
    if (!options.allowSpawning && isAgentSpawningTool(tool)) return false;
    if (definition.tools && !definition.tools.some((entry) => entryNamesTool(entry, tool))) return false;
    if (definition.disallowedTools?.some((entry) => entryNamesTool(entry, tool))) return false;
    return true;
  });
}
