/**
 * How one run of an event's hooks becomes what its caller sees: the lifecycle frame a hook's
 * execution reports, the outcome of PostToolUse-like events, and the verdict as level 1 of the
 * permission decision.
 */
import type { HookPermissionDecision } from '../permissions/types';
import type { HookRunResult } from './combine';
import type { HookExecution } from './execute';
import type { HookEvent, HookLifecycle, PostToolUseOutcome } from './types';

export function responseOf(
  execution: HookExecution,
  names: { hookId: string; hookName: string; hookEvent: HookEvent },
): HookLifecycle {
  const { verdict, stdout, stderr } = execution;
  const failed = verdict.error !== undefined || verdict.blockingError !== undefined;
  return {
    phase: 'response',
    ...names,
    output: [stdout.trim(), stderr.trim()].filter((text) => text !== '').join('\n'),
    stdout,
    stderr,
    ...(execution.exitCode === undefined ? {} : { exitCode: execution.exitCode }),
    outcome: execution.cancelled ? 'cancelled' : failed ? 'error' : 'success',
  };
}

export function postLike(result: HookRunResult): PostToolUseOutcome {
  const outcome: PostToolUseOutcome = {};
  if (result.additionalContext.length > 0) outcome.additionalContext = result.additionalContext;
  if (result.preventContinuation) outcome.preventContinuation = result.preventContinuation;
  if (result.systemMessages.length > 0) outcome.systemMessages = result.systemMessages;
  return outcome;
}

export function withBlocking(outcome: PostToolUseOutcome, result: HookRunResult): PostToolUseOutcome {
  if (result.blockingErrors.length > 0) outcome.blockingErrors = result.blockingErrors;
  return outcome;
}

/**
 * The hook verdict as level 1 of the permission decision, worded for the model like
 * compat-surface §2.7. A rewritten input travels apart (`updatedInput`): the decision judges it.
 */
export function toPermissionDecision(
  result: HookRunResult,
  label: string,
): HookPermissionDecision | undefined {
  const verdict = result.permissionDecision;
  if (!verdict) return undefined;
  const decisionReason = {
    type: 'hook' as const,
    hookName: verdict.hookName,
    ...(verdict.reason ? { reason: verdict.reason } : {}),
  };
  switch (verdict.behavior) {
    case 'allow':
      return { behavior: 'allow', decisionReason };
    case 'deny':
      return {
        behavior: 'deny',
        message: `${label} hook error: ${verdict.reason ?? `blocked by hook "${verdict.hookName}"`}`,
        decisionReason,
      };
    case 'ask':
      return {
        behavior: 'ask',
        message: verdict.reason ?? `The ${label} hook "${verdict.hookName}" asks for confirmation.`,
        decisionReason,
      };
  }
}
