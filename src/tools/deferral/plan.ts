/**
 * The deferral decision for one request: which schemas go out in full, which wait behind
 * ToolSearch (named in a compact list), and which of those the model has loaded. Pure: the same
 * pool, window and loads give the same plan, so the request prefix only changes when they do.
 */
import type { AnyTool } from '../tool';
import { schemaBudget, type ToolSearchPolicy } from './policy';

export const TOOL_SEARCH_TOOL_NAME = 'ToolSearch';

export type LoadedTool = {
  tool: AnyTool;
  /**
   * A `tool_reference` to it is in the history sent with this request: on the Anthropic wire its
   * schema then reaches the model there, so it is sent with `defer_loading`. A load whose
   * reference is gone (compacted away) is sent as an ordinary tool instead.
   */
  referenced: boolean;
};

export type DeferralPlan = {
  /** Sent in full, in pool order; ToolSearch is among them exactly when something is deferred. */
  upFront: readonly AnyTool[];
  /** Every deferred tool, sorted by name: what ToolSearch searches. */
  deferred: readonly AnyTool[];
  /** The deferred tools the model loaded, sorted by name: sent after the others. */
  loaded: readonly LoadedTool[];
  /** The deferred tools not loaded yet, by name (sorted): the list the request names them in. */
  unloaded: readonly string[];
  /** Estimated tokens of the schemas that may be deferred when over budget, and that budget. */
  deferrableTokens: number;
  budget: number;
};

export type DeferralInput = {
  /** The assembled pool (tools/registry.ts `assembleToolPool`: built-ins first, sorted). */
  tools: readonly AnyTool[];
  policy: ToolSearchPolicy;
  contextWindow: number;
  /** The tools loaded earlier in the session. */
  loaded: ReadonlySet<string>;
  /** The tools a `tool_reference` in this request's history names. */
  referenced: ReadonlySet<string>;
  /** Estimated tokens of one tool's schema (cached by the caller: schemas do not change). */
  schemaTokens: (tool: AnyTool) => number;
};

const byName = (a: AnyTool, b: AnyTool) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export function planToolDeferral(input: DeferralInput): DeferralPlan {
  const { tools, policy } = input;
  const budget = schemaBudget(policy, input.contextWindow);
  const searchTool = tools.find((tool) => tool.name === TOOL_SEARCH_TOOL_NAME);
  const overBudgetKind = tools.filter((tool) => tool.deferral === 'when-over-budget' && tool !== searchTool);
  const deferrableTokens = overBudgetKind.reduce((sum, tool) => sum + input.schemaTokens(tool), 0);
  const nothingDeferred: DeferralPlan = {
    upFront: tools.filter((tool) => tool !== searchTool),
    deferred: [],
    loaded: [],
    unloaded: [],
    deferrableTokens,
    budget,
  };
  // Without ToolSearch in the pool (`--tools`, a deny rule) a deferred tool could never be loaded.
  if (policy.mode === 'off' || !searchTool) return nothingDeferred;

  const deferredSet = new Set<AnyTool>();
  if (policy.mode === 'always' || deferrableTokens > budget)
    for (const tool of overBudgetKind) deferredSet.add(tool);
  const namedBuiltins = new Set(policy.deferBuiltins);
  for (const tool of tools) {
    if (!tool.isMcp && tool !== searchTool && namedBuiltins.has(tool.name)) deferredSet.add(tool);
  }
  if (deferredSet.size === 0) return nothingDeferred;

  const deferred = [...deferredSet].sort(byName);
  const loaded: LoadedTool[] = [];
  const unloaded: string[] = [];
  for (const tool of deferred) {
    const referenced = input.referenced.has(tool.name);
    if (referenced || input.loaded.has(tool.name)) loaded.push({ tool, referenced });
    else unloaded.push(tool.name);
  }
  return {
    upFront: tools.filter((tool) => !deferredSet.has(tool)),
    deferred,
    loaded,
    unloaded,
    deferrableTokens,
    budget,
  };
}

/**
 * The compact list the request names the deferred tools in. It lists every deferred tool, loaded
 * or not, so it only changes when the deferred set does and the cached prefix behind it holds.
 */
export function deferredToolsNotice(plan: DeferralPlan): string | undefined {
  if (plan.deferred.length === 0) return undefined;
  return [
    `Deferred tools (${plan.deferred.length}): they exist, but only their names are shown until you load ` +
      `them with ${TOOL_SEARCH_TOOL_NAME} (query "select:<name>[,<name>…]", or keywords). A loaded tool stays callable.`,
    ...plan.deferred.map((tool) => tool.name),
  ].join('\n');
}
