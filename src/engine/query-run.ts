/**
 * One run of the query loop: its QueryState, the model and provider it calls now (the fallback's
 * after an overload), its task budget, and the moves every part of the loop makes — append a
 * message (yielded as it joins history), record a Transition, end with a Terminal.
 */
import type { Provider } from '../model/types';
import type { Message } from '../session/messages';
import type { AnswerEnd } from './attempt-end';
import type {
  QueryEvent,
  QueryParams,
  QueryState,
  Terminal,
  TerminalReason,
  Transition,
} from './query-types';
import { apiErrorMessage } from './recovery';
import { TaskBudget } from './task-budget';

/** A step of the loop: returns a Terminal to stop, undefined to go round again. */
export type Step = AsyncGenerator<QueryEvent, Terminal | undefined>;

export class QueryRun {
  readonly state: QueryState;
  readonly budget: TaskBudget;
  private currentProvider: Provider;
  private currentModel: string;
  private fallbackTaken = false;

  constructor(readonly params: QueryParams) {
    this.currentProvider = params.provider;
    this.currentModel = params.model;
    this.budget = new TaskBudget(params.taskBudget?.total);
    this.state = {
      // One copy up front: the loop appends in place and must not write into the caller's array.
      messages: [...params.messages],
      toolUseContext: params.toolUseContext,
      turnCount: 0,
      maxOutputTokensRecoveryCount: 0,
      hasAttemptedReactiveCompact: false,
      hasAttemptedCollapseDrain: false,
      hasAttemptedMediaStrip: false,
      maxOutputTokensOverride: undefined,
      stopHookActive: false,
      stopHookBlocks: 0,
      structuredOutputNudges: 0,
      transition: undefined,
    };
  }

  get signal(): AbortSignal {
    return this.state.toolUseContext.abortSignal;
  }

  get provider(): Provider {
    return this.currentProvider;
  }

  get model(): string {
    return this.currentModel;
  }

  /** The rest of the turn runs on `model` (same provider): a tool's context handed it back. */
  adoptModel(model: string): void {
    this.currentModel = model;
  }

  /** Whether the loop moved to the fallback model already (it does so once). */
  get onFallback(): boolean {
    return this.fallbackTaken;
  }

  /** Moves the rest of the run to the fallback model; returns the model it leaves. */
  switchToFallback(fallback: { provider: Provider; model: string }): string {
    const from = this.currentModel;
    this.fallbackTaken = true;
    this.currentProvider = fallback.provider;
    this.currentModel = fallback.model;
    this.state.toolUseContext = { ...this.state.toolUseContext, model: fallback.model };
    return from;
  }

  /**
   * `--max-budget-usd`, asked after whatever spent money and before the next model call: a tool
   * turn's model call, and a compaction's summary call (auto-compact in the pipeline, or reactive).
   */
  budgetSpent(): boolean {
    return this.params.isBudgetExhausted?.() === true;
  }

  endOnBudget(): Terminal {
    return this.end('budget_exhausted', 'The budget for this task is spent.');
  }

  /** Yields the answer's withheld block messages and adds the response to history. */
  *commit(answer: AnswerEnd): Generator<QueryEvent> {
    this.state.messages.push(...(yield* answer.finishAnswer()));
  }

  *append(message: Message): Generator<QueryEvent> {
    this.state.messages.push(message);
    yield { type: 'message', message };
  }

  *proceed(transition: Transition): Generator<QueryEvent> {
    this.state.transition = transition;
    yield { type: 'transition', transition };
  }

  /** Ends the loop on an error: the user sees it as an API-error message, the result as `message`. */
  *fail(reason: TerminalReason, message: string, error?: unknown): Generator<QueryEvent, Terminal> {
    // Kept in history for the transcript; toApiMessages never sends it to a model.
    yield* this.append(apiErrorMessage(message, this.currentModel));
    const terminal = this.end(reason, message);
    if (error instanceof Error) terminal.error = error;
    return terminal;
  }

  end(reason: TerminalReason, message?: string): Terminal {
    const terminal: Terminal = {
      reason,
      turnCount: this.state.turnCount,
      messages: this.state.messages,
      cwd: this.state.toolUseContext.cwd,
      projectRoot: this.state.toolUseContext.projectRoot,
    };
    if (message !== undefined) terminal.message = message;
    return terminal;
  }
}
