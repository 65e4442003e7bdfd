/**
 * The tool pool of a session: registered built-ins filtered by mode and blanket deny rules
 * (`assembleToolPool`), narrowed to `--tools` when given, then the extra (MCP/SDK) tools.
 */
import { canonicalToolName } from '../permissions/rule-string';
import type { ToolPermissionContext } from '../permissions/types';
import { assembleToolPool, findToolByName, getAllBaseTools } from '../tools/registry';
import type { AnyTool } from '../tools/tool';

export type ToolSelection = { tools: AnyTool[]; warnings: string[] };

/**
 * `only`: undefined keeps every built-in; otherwise just the named ones (names or legacy
 * aliases). Unknown names are reported, not fatal: SDK hosts name tools Yoke may not have.
 */
export function selectSessionTools(
  permissionContext: ToolPermissionContext,
  only: readonly string[] | undefined,
  extraTools: readonly AnyTool[] = [],
): ToolSelection {
  const pool = assembleToolPool(permissionContext, extraTools);
  if (only === undefined) return { tools: pool, warnings: [] };
  const builtins = getAllBaseTools();
  const chosen = new Set<string>();
  const warnings: string[] = [];
  for (const name of only) {
    const tool = findToolByName(builtins, name) ?? findToolByName(builtins, canonicalToolName(name));
    if (tool) chosen.add(tool.name);
    else warnings.push(`--tools: no built-in tool named ${JSON.stringify(name)}`);
  }
  const builtinNames = new Set(builtins.map((tool) => tool.name));
  return {
    tools: pool.filter((tool) => !builtinNames.has(tool.name) || chosen.has(tool.name)),
    warnings,
  };
}
