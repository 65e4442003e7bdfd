/**
 * The one place the model's tool pool is assembled (seed 000 §3.3.2). `assembleToolPool` takes the
 * session's built-ins (tools/builtin: `createBuiltinTools`) and its extra (MCP, SDK) tools, filters
 * them and merges them in a fixed order so the request prefix (and with it the prompt cache) only
 * changes when the pool really does.
 */
import type { ToolSchema } from '../model/types';
import type { PermissionMode, PermissionRule, ToolPermissionContext } from '../permissions/types';
import type { LoadedTool } from './deferral/plan';
import type { AnyTool, ToolTier } from './tool';

const TIER_RANK: Record<ToolTier, number> = { read: 0, write: 1, exec: 2 };

/** The highest tier a mode shows the model: plan mode must not even see write/exec tools (but see `keptInPlanMode`). */
export function maxTierForMode(mode: PermissionMode): ToolTier {
  return mode === 'plan' ? 'read' : 'exec';
}

const MCP_PREFIX = 'mcp__';

/** Whether a deny rule without content names this tool (by name, alias, or its MCP server). */
function ruleCoversTool(rule: PermissionRule, tool: AnyTool): boolean {
  if (rule.toolName === tool.name || tool.aliases.includes(rule.toolName)) return true;
  if (!tool.isMcp || !rule.toolName.startsWith(MCP_PREFIX)) return false;
  // `mcp__server` and `mcp__server__*` both mean every tool of that server.
  const serverRule = rule.toolName.endsWith('__*') ? rule.toolName.slice(0, -3) : rule.toolName;
  if (serverRule.slice(MCP_PREFIX.length).includes('__')) return false;
  return tool.name.startsWith(`${serverRule}__`);
}

/**
 * A deny rule with no content removes the tool from the pool instead of refusing each call. One
 * that stands in for a malformed rule does not: each call is refused with a message naming the
 * broken rule, so the model can tell the user what to fix.
 */
export function isBlanketDenied(tool: AnyTool, permissionContext: ToolPermissionContext): boolean {
  return permissionContext.rules.some(
    (rule) => rule.behavior === 'deny' && !rule.ruleContent && !rule.malformed && ruleCoversTool(rule, tool),
  );
}

function isVisible(tool: AnyTool, permissionContext: ToolPermissionContext): boolean {
  if (!tool.isEnabled()) return false;
  if (isBlanketDenied(tool, permissionContext)) return false;
  // A tool kept in plan mode declares it; the permission decision denies its calls that change anything.
  if (permissionContext.mode === 'plan' && tool.keptInPlanMode) return true;
  return TIER_RANK[tool.tier] <= TIER_RANK[maxTierForMode(permissionContext.mode)];
}

/** The tools the model may see under this permission context: enabled, not denied, within tier. */
export function getTools(permissionContext: ToolPermissionContext, tools: readonly AnyTool[]): AnyTool[] {
  return tools.filter((tool) => isVisible(tool, permissionContext));
}

const byName = (a: AnyTool, b: AnyTool) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The final pool: built-ins sorted by name, then extra (MCP) tools sorted by name. Extra tools go
 * through the same filters (a plan-mode pool holds no write/exec tool from any source); on a name
 * clash the built-in wins, so a server cannot shadow a core tool.
 */
export function assembleToolPool(
  permissionContext: ToolPermissionContext,
  builtinTools: readonly AnyTool[],
  extraTools: readonly AnyTool[] = [],
): AnyTool[] {
  const builtins = getTools(permissionContext, builtinTools).sort(byName);
  const extras = getTools(permissionContext, extraTools).sort(byName);
  const seen = new Set<string>();
  const pool: AnyTool[] = [];
  for (const tool of [...builtins, ...extras]) {
    if (seen.has(tool.name)) continue;
    seen.add(tool.name);
    pool.push(tool);
  }
  return pool;
}

/** Finds a tool by its name first, then by a legacy alias (names always win over aliases). */
export function findToolByName(tools: readonly AnyTool[], name: string): AnyTool | undefined {
  return tools.find((tool) => tool.name === name) ?? tools.find((tool) => tool.aliases.includes(name));
}

export type ToolSchemaSet = {
  tools: ToolSchema[];
  /** How many leading schemas are built-ins; the cache breakpoint goes after the last of them. */
  builtinToolCount: number;
};

const schemaOf = (tool: AnyTool): ToolSchema => ({
  name: tool.name,
  description: tool.prompt(),
  input_schema: tool.inputJsonSchema,
});

/**
 * The request's `tools` for a pool assembled by `assembleToolPool` (built-ins first), then the
 * deferred tools the model loaded (tools/deferral), last so that loading one never moves the
 * others. A load whose `tool_reference` is in the history is marked `deferLoading`.
 */
export function toolSchemas(tools: readonly AnyTool[], loaded: readonly LoadedTool[] = []): ToolSchemaSet {
  const firstExtra = tools.findIndex((tool) => tool.isMcp);
  return {
    tools: [
      ...tools.map(schemaOf),
      ...loaded.map(({ tool, referenced }) =>
        referenced ? { ...schemaOf(tool), deferLoading: true as const } : schemaOf(tool),
      ),
    ],
    builtinToolCount: firstExtra === -1 ? tools.length : firstExtra,
  };
}
