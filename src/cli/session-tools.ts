/**
 * The tool pool of a session: its built-ins filtered by mode and blanket deny rules
 * (`assembleToolPool`), narrowed to `--tools` when given, then the extra (MCP/SDK) tools; last,
 * the tools that cannot work on this machine are taken out (tools/availability.ts).
 */
import { canonicalToolName } from '../permissions/rule-string';
import type { ToolPermissionContext } from '../permissions/types';
import { type AvailabilityProblem, checkToolAvailability } from '../tools/availability';
import { assembleToolPool, findToolByName } from '../tools/registry';
import type { AnyTool } from '../tools/tool';

export type ToolSelection = {
  tools: AnyTool[];
  warnings: string[];
  /** Tools left out or limited because something they need is missing here (for `/doctor`). */
  availability: AvailabilityProblem[];
};

/**
 * `only`: undefined keeps every built-in; otherwise just the named ones (names or legacy
 * aliases). Unknown names are reported, not fatal: SDK hosts name tools Yoke may not have.
 */
export function selectSessionTools(
  permissionContext: ToolPermissionContext,
  only: readonly string[] | undefined,
  builtins: readonly AnyTool[],
  extraTools: readonly AnyTool[] = [],
  env: Readonly<Record<string, string | undefined>> = process.env,
): ToolSelection {
  const chosen = chooseTools(assembleToolPool(permissionContext, builtins, extraTools), builtins, only);
  // Only the tools this session would offer are checked: `--tools Read` says nothing of ripgrep.
  const { offered, problems } = checkToolAvailability(chosen.tools, env);
  return { tools: offered, warnings: chosen.warnings, availability: problems };
}

function chooseTools(
  pool: AnyTool[],
  builtins: readonly AnyTool[],
  only: readonly string[] | undefined,
): { tools: AnyTool[]; warnings: string[] } {
  if (only === undefined) return { tools: pool, warnings: [] };
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
