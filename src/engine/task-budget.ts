/**
 * The task budget (`taskBudget.total` output tokens for the whole query): when the model ends a
 * response early, it is nudged to keep working until the budget is nearly spent.
 *
 * The rule, so the loop always ends:
 * - output tokens of every completed model call in this query count as spent;
 * - a nudge is only sent while less than 90% of the budget is spent (the last tenth is too
 *   small for a useful further step) and only after a natural `end_turn` (not a refusal or a
 *   stop sequence);
 * - the model "saying it is done" is a response without tool calls; after two such responses in
 *   a row (the second one being its answer to a nudge) it is believed. Any tool call in between
 *   means the nudge led to real work, so the count starts again.
 */
import type { StopReason } from '../model/types';
import { createUserMessage, type UserMessage } from '../session/messages';

export const BUDGET_COMPLETION_RATIO = 0.9;
export const MAX_DONE_IN_A_ROW = 2;

export class TaskBudget {
  private spent = 0;
  private doneInARow = 0;

  constructor(private readonly total: number | undefined) {}

  get outputTokensSpent(): number {
    return this.spent;
  }

  /** Counts a completed model call's output tokens. */
  record(outputTokens: number): void {
    this.spent += outputTokens;
  }

  /** The model called tools: it is still working. */
  toolTurn(): void {
    this.doneInARow = 0;
  }

  /** The model ended a response without tool calls; returns a nudge when it should go on. */
  nudgeAfterStop(stopReason: StopReason | undefined): UserMessage | undefined {
    this.doneInARow++;
    if (this.total === undefined || this.total <= 0) return undefined;
    if (stopReason !== 'end_turn') return undefined;
    if (this.doneInARow >= MAX_DONE_IN_A_ROW) return undefined;
    if (this.spent >= this.total * BUDGET_COMPLETION_RATIO) return undefined;
    const percent = Math.round((this.spent / this.total) * 100);
    return createUserMessage(
      `You have used ${this.spent} of ${this.total} output tokens (${percent}%) budgeted for this ` +
        'task. Keep working: verify, finish or improve the work. If it is truly complete, say so briefly.',
      { isMeta: true },
    );
  }
}
