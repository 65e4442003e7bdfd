/**
 * A worker's budgets as one meter: the tokens and cost its model calls spent, the tool calls it
 * made, and which limit (if any) stopped it. The loop asks `exhausted` after every tool round;
 * the wall-time limit also aborts a call still waiting when the time runs out.
 */
import type { TerminalReason } from '../engine/query-types';
import type { AssistantContentBlock, Usage } from '../model/types';
import { addUsage, emptyUsage } from '../model/types';
import type { AgentBudget, AgentBudgetStop, AgentClock } from './types';

/** The tighter of two budgets, limit by limit. */
export function mergeBudgets(a: AgentBudget | undefined, b: AgentBudget | undefined): AgentBudget {
  const pick = (x: number | undefined, y: number | undefined) =>
    x === undefined ? y : y === undefined ? x : Math.min(x, y);
  const merged: AgentBudget = {};
  const maxTurns = pick(a?.maxTurns, b?.maxTurns);
  const maxTokens = pick(a?.maxTokens, b?.maxTokens);
  const maxDurationMs = pick(a?.maxDurationMs, b?.maxDurationMs);
  if (maxTurns !== undefined) merged.maxTurns = maxTurns;
  if (maxTokens !== undefined) merged.maxTokens = maxTokens;
  if (maxDurationMs !== undefined) merged.maxDurationMs = maxDurationMs;
  return merged;
}

/** Every token a call processed: fresh input, cache reads and writes, and output. */
export function tokensOf(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens + usage.outputTokens;
}

export class AgentBudgetMeter {
  usage: Usage = emptyUsage();
  costUsd = 0;
  toolUses = 0;
  private stop: AgentBudgetStop | undefined;
  private readonly cancelTimer: (() => void) | undefined;

  constructor(
    private readonly budget: AgentBudget,
    private readonly clock: AgentClock,
    private readonly startedAt: number,
    onTimeUp: () => void,
  ) {
    const limit = budget.maxDurationMs;
    this.cancelTimer =
      limit === undefined
        ? undefined
        : clock.setTimer(() => {
            this.stop ??= 'max_duration';
            onTimeUp();
          }, limit);
  }

  get totalTokens(): number {
    return tokensOf(this.usage);
  }

  addUsage(usage: Usage, costUsd: number): void {
    this.usage = addUsage(this.usage, usage);
    this.costUsd += costUsd;
  }

  countToolUses(content: readonly AssistantContentBlock[]): void {
    for (const block of content) if (block.type === 'tool_use') this.toolUses++;
  }

  /**
   * Asked before the worker's next model call: its own token and time limits, then the session's
   * `--max-budget-usd` (children's spending counts there too).
   */
  exhausted(sessionCostUsd: number, maxBudgetUsd: number | undefined): boolean {
    const { maxTokens, maxDurationMs } = this.budget;
    if (maxTokens !== undefined && this.totalTokens >= maxTokens) this.stop ??= 'max_tokens';
    if (maxDurationMs !== undefined && this.clock.now() - this.startedAt >= maxDurationMs)
      this.stop ??= 'max_duration';
    if (this.stop) return true;
    return maxBudgetUsd !== undefined && sessionCostUsd >= maxBudgetUsd;
  }

  /** The agent's own limit that ended the run, if one did. */
  stopReason(terminal: TerminalReason): AgentBudgetStop | undefined {
    if (this.stop) return this.stop;
    return terminal === 'max_turns' ? 'max_turns' : undefined;
  }

  dispose(): void {
    this.cancelTimer?.();
  }
}
