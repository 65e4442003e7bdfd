/**
 * The query loop after the model answered without tool calls: Stop hooks may send it back to
 * work, the task budget may nudge it on, `--json-schema` may demand StructuredOutput; otherwise
 * the turn completes.
 */
import { createSystemMessage } from '../session/messages';
import type { AnswerEnd } from './attempt-end';
import type { QueryRun, Step } from './query-run';
import { DEFAULT_STOP_HOOK_BLOCK_CAP, stopHookCapText, stopHookFeedbackMessage } from './recovery';
import {
  MAX_STRUCTURED_OUTPUT_NUDGES,
  STRUCTURED_OUTPUT_MISSING_TEXT,
  structuredOutputNudge,
} from './structured-output-nudge';

export async function* afterAnswer(run: QueryRun, answer: AnswerEnd): Step {
  const { state, params } = run;
  const outcome = await params.hooks.stop(
    {
      stopHookActive: state.stopHookActive,
      lastAssistantText: answer.text,
      effort: state.toolUseContext.effort?.level,
    },
    run.signal,
  );
  for (const text of outcome.systemMessages ?? []) {
    yield* run.append(createSystemMessage('stop_hook_feedback', text));
  }
  if (outcome.preventContinuation) {
    return run.end('stop_hook_prevented', outcome.preventContinuation.stopReason);
  }
  if (outcome.blockingErrors.length > 0) {
    // Every block of the turn counts, tool calls in between or not: a hook that objects to
    // everything must not keep the model (and the bill) going until the turn limit.
    const cap = params.stopHookBlockCap ?? DEFAULT_STOP_HOOK_BLOCK_CAP;
    if (state.stopHookBlocks >= cap) {
      const text = stopHookCapText(cap, outcome.blockingErrors);
      yield* run.append(createSystemMessage('stop_hook_feedback', text, { level: 'warning' }));
      return run.end('stop_hook_prevented', text);
    }
    state.stopHookBlocks++;
    yield* run.append(stopHookFeedbackMessage(outcome.blockingErrors));
    state.stopHookActive = true;
    yield* run.proceed({ reason: 'stop_hook_blocking' });
    return undefined;
  }
  const nudge = run.budget.nudgeAfterStop(answer.stop.reason);
  if (nudge) {
    yield* run.append(nudge);
    yield* run.proceed({
      reason: 'token_budget_continuation',
      detail: `${run.budget.outputTokensSpent} of ${params.taskBudget?.total} output tokens spent`,
    });
    return undefined;
  }
  return yield* demandStructuredOutput(run);
}

/** The end of a turn with `--json-schema`: not before the model called StructuredOutput. */
async function* demandStructuredOutput(run: QueryRun): Step {
  const { state } = run;
  const output = run.params.structuredOutput;
  if (!output || output.provided) return run.end('completed');
  if (state.structuredOutputNudges >= MAX_STRUCTURED_OUTPUT_NUDGES) {
    return run.end('structured_output_retry_exhausted', STRUCTURED_OUTPUT_MISSING_TEXT);
  }
  state.structuredOutputNudges++;
  yield* run.append(structuredOutputNudge());
  yield* run.proceed({
    reason: 'structured_output_nudge',
    detail: `${state.structuredOutputNudges}/${MAX_STRUCTURED_OUTPUT_NUDGES}`,
  });
  return undefined;
}
