/**
 * A session's deferred tools: which ones the model has loaded, and the plan each pool's last
 * request was built with (the runner and ToolSearch read it). One per session, on its services,
 * so two sessions in one process never see each other's loads.
 */

import { estimateTextTokens, estimateToolSchemaTokens } from '../../model/tokens';
import type { MessageParam } from '../../model/types';
import type { AnyTool } from '../tool';
import { type DeferralPlan, deferredToolsNotice, planToolDeferral } from './plan';
import type { ToolSearchPolicy } from './policy';

export class DeferredTools {
  private readonly loadedNames = new Set<string>();
  private readonly plans = new WeakMap<readonly AnyTool[], DeferralPlan>();
  private readonly schemaTokens = new WeakMap<AnyTool, number>();

  constructor(readonly policy: ToolSearchPolicy) {}

  /**
   * The plan for a request that carries `messages` to a model with this window. Loads found in
   * the history (a resumed session's ToolSearch results) are recorded, so they stay loaded even
   * after compaction takes their results away.
   */
  plan(tools: readonly AnyTool[], contextWindow: number, messages: readonly MessageParam[]): DeferralPlan {
    const referenced = this.mayDefer(tools) ? referencedTools(messages) : new Set<string>();
    for (const name of referenced) this.loadedNames.add(name);
    const plan = planToolDeferral({
      tools,
      policy: this.policy,
      contextWindow,
      loaded: this.loadedNames,
      referenced,
      schemaTokens: (tool) => this.tokensOf(tool),
    });
    this.plans.set(tools, plan);
    return plan;
  }

  /**
   * Estimated tokens of the tool definitions a request for this pool sends: what the context
   * pipeline counts besides the messages. Undefined when nothing in the pool can be deferred.
   */
  sentToolTokens(tools: readonly AnyTool[], contextWindow: number): number | undefined {
    if (!this.mayDefer(tools)) return undefined;
    const plan = planToolDeferral({
      tools,
      policy: this.policy,
      contextWindow,
      loaded: this.loadedNames,
      referenced: new Set(),
      schemaTokens: (tool) => this.tokensOf(tool),
    });
    let sum = estimateTextTokens(deferredToolsNotice(plan) ?? '');
    for (const tool of plan.upFront) sum += this.tokensOf(tool);
    for (const { tool } of plan.loaded) sum += this.tokensOf(tool);
    return sum;
  }

  /** The plan of this pool's latest request; undefined before its first. */
  planFor(tools: readonly AnyTool[]): DeferralPlan | undefined {
    return this.plans.get(tools);
  }

  /** Whether the request the model answered offered this tool by name only (not loaded yet). */
  awaitsLoading(tools: readonly AnyTool[], name: string): boolean {
    return this.plans.get(tools)?.unloaded.includes(name) ?? false;
  }

  private mayDefer(tools: readonly AnyTool[]): boolean {
    if (this.policy.mode === 'off') return false;
    const named = new Set(this.policy.deferBuiltins);
    return tools.some((tool) => tool.deferral === 'when-over-budget' || named.has(tool.name));
  }

  private tokensOf(tool: AnyTool): number {
    let tokens = this.schemaTokens.get(tool);
    if (tokens === undefined) {
      tokens = estimateToolSchemaTokens({
        name: tool.name,
        description: tool.prompt(),
        input_schema: tool.inputJsonSchema,
      });
      this.schemaTokens.set(tool, tokens);
    }
    return tokens;
  }
}

/** The tools named by `tool_reference` blocks in the tool results of these messages. */
export function referencedTools(messages: readonly MessageParam[]): Set<string> {
  const names = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type !== 'tool_result' || typeof block.content === 'string') continue;
      for (const inner of block.content) if (inner.type === 'tool_reference') names.add(inner.tool_name);
    }
  }
  return names;
}
