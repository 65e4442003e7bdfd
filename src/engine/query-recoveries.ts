/**
 * The query loop's recoveries, as control flow (their policy and texts are in recovery.ts): a
 * max_tokens stop escalates once, then asks the model to continue; a failed model call moves to
 * the fallback model on overload, drains the staged collapses and then compacts once on
 * prompt-too-long, strips refused media — or ends the loop with the error.
 */
import type { ModelRequest } from '../model/types';
import { stripThinking } from './api-messages';
import type { AnswerEnd, FailedEnd } from './attempt-end';
import { stripRefusedMedia } from './media-recovery';
import type { QueryRun, Step } from './query-run';
import {
  adviseFallbackModel,
  classifyModelError,
  errorText,
  escalatedMaxTokens,
  fallbackNotice,
  MAX_OUTPUT_TOKENS_RECOVERY_LIMIT,
  outputLimitContinuationMessage,
  outputLimitErrorText,
  TERMINAL_FOR_ERROR,
} from './recovery';

/** A max_tokens stop without tool calls: escalate once, then ask the model to continue. */
export async function* recoverFromMaxTokens(run: QueryRun, answer: AnswerEnd, request: ModelRequest): Step {
  const { state } = run;
  if (state.maxOutputTokensOverride === undefined) {
    const escalated = escalatedMaxTokens(run.model, request.maxTokens);
    if (escalated !== undefined) {
      // The same request again with room to finish; the truncated response is dropped unseen.
      state.maxOutputTokensOverride = escalated;
      yield* run.proceed({
        reason: 'max_output_tokens_escalate',
        detail: `${request.maxTokens} → ${escalated}`,
      });
      return undefined;
    }
  }
  // The truncated response stays: the model continues from where it was cut off.
  yield* run.commit(answer);
  if (state.maxOutputTokensRecoveryCount < MAX_OUTPUT_TOKENS_RECOVERY_LIMIT) {
    state.maxOutputTokensRecoveryCount++;
    yield* run.append(outputLimitContinuationMessage());
    yield* run.proceed({
      reason: 'max_output_tokens_recovery',
      detail: `${state.maxOutputTokensRecoveryCount}/${MAX_OUTPUT_TOKENS_RECOVERY_LIMIT}`,
    });
    return undefined;
  }
  return yield* run.fail(
    'model_error',
    outputLimitErrorText(request.maxTokens, state.maxOutputTokensRecoveryCount),
  );
}

/**
 * A failed model call: recover when a recovery applies (the fallback model on overload; the
 * collapse drain, then one reactive compact on prompt-too-long; stripping refused media), else
 * end with the error.
 */
export async function* recoverFromError(run: QueryRun, end: FailedEnd): Step {
  const { state, params } = run;
  const error = end.error;
  yield* end.finishError();
  const kind = classifyModelError(error);

  if (kind === 'overloaded' && params.fallback && !run.onFallback) {
    const from = run.switchToFallback(params.fallback);
    // Thinking signatures are bound to the model that produced them.
    state.messages = stripThinking(state.messages);
    yield* run.append(fallbackNotice(from, run.model, error));
    yield* run.proceed({ reason: 'model_fallback', detail: `${from} → ${run.model}` });
    return undefined;
  }
  // Staged collapses first: they cost no model call and keep the most of the conversation.
  if (kind === 'prompt_too_long' && params.collapseDrain && !state.hasAttemptedCollapseDrain) {
    state.hasAttemptedCollapseDrain = true;
    const drained = await params.collapseDrain({ messages: state.messages, signal: run.signal });
    if (drained) {
      state.messages = drained.messages;
      for (const message of drained.events) yield { type: 'message', message };
      yield* run.proceed({ reason: 'collapse_drain_retry', detail: `${drained.folded} rounds folded` });
      return undefined;
    }
  }
  if (kind === 'prompt_too_long' && params.reactiveCompact && !state.hasAttemptedReactiveCompact) {
    state.hasAttemptedReactiveCompact = true;
    const compacted = await params.reactiveCompact({ messages: state.messages, signal: run.signal });
    if (compacted) {
      state.messages = compacted.messages;
      for (const message of compacted.events ?? []) yield { type: 'message', message };
      // The summary was a model call of its own: it may have spent what was left.
      if (run.budgetSpent()) return run.endOnBudget();
      yield* run.proceed({ reason: 'reactive_compact_retry' });
      return undefined;
    }
  }
  if (kind === 'media' && !state.hasAttemptedMediaStrip) {
    state.hasAttemptedMediaStrip = true;
    const stripped = stripRefusedMedia(state.messages, error);
    if (stripped) {
      state.messages = stripped.messages;
      yield* run.append(stripped.notice);
      yield* run.proceed({ reason: 'media_strip_retry', detail: `${stripped.removed} removed` });
      return undefined;
    }
  }
  if (kind === 'overloaded' && !params.fallback) adviseFallbackModel(error);
  return yield* run.fail(TERMINAL_FOR_ERROR[kind], errorText(error), error);
}
