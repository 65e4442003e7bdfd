/**
 * Combines the verdicts of the hooks that ran in parallel for one event into one result:
 * deny beats ask beats allow, context and messages accumulate, any `continue:false` stops.
 * Texts for the model are worded as compat-surface §2.7 describes.
 */

import { isJsonObject } from '../lib/json-object';
import type { HookVerdict } from './interpret';

export type HookPermissionVerdict = {
  behavior: 'allow' | 'deny' | 'ask';
  reason?: string;
  hookName: string;
};

export type HookRunResult = {
  event: string;
  /** Every hook's own verdict, in configuration order. */
  verdicts: HookVerdict[];
  permissionDecision?: HookPermissionVerdict;
  /** From the last hook that rewrote the input without denying or asking. */
  updatedInput?: Record<string, unknown>;
  /** Texts for the model, already labelled (`PreToolUse:Bash hook additional context: …`). */
  additionalContext: string[];
  /** Texts for the user only. */
  systemMessages: string[];
  /** Blocking feedback, one per hook: `[hook]: reason`. */
  blockingErrors: string[];
  preventContinuation?: { stopReason: string };
  /** Non-blocking failures, one line each (already reported through onMessage). */
  errors: string[];
  /** Each hook's `hookSpecificOutput`, for event-specific fields (initialUserMessage, decision, …). */
  hookSpecificOutputs: Record<string, unknown>[];
};

const RANK = { allow: 1, ask: 2, deny: 3 } as const;
/** Events whose plain stdout is context for the model (compat-surface §2.6). */
const STDOUT_IS_CONTEXT = new Set(['UserPromptSubmit', 'SessionStart']);
/** Events whose legacy `decision` is a permission verdict rather than feedback. */
const PERMISSION_EVENTS = new Set(['PreToolUse', 'PreSkillShellCommand']);

export function emptyHookRunResult(event: string): HookRunResult {
  return {
    event,
    verdicts: [],
    additionalContext: [],
    systemMessages: [],
    blockingErrors: [],
    errors: [],
    hookSpecificOutputs: [],
  };
}

export function combineVerdicts(event: string, label: string, verdicts: HookVerdict[]): HookRunResult {
  const result = emptyHookRunResult(event);
  result.verdicts = verdicts;
  const decide = (verdict: HookPermissionVerdict) => {
    const current = result.permissionDecision;
    if (!current || RANK[verdict.behavior] > RANK[current.behavior]) result.permissionDecision = verdict;
  };

  for (const verdict of verdicts) {
    const { hookName, json } = verdict;
    if (verdict.error) result.errors.push(verdict.error);
    if (verdict.blockingError !== undefined) {
      const text = `[${hookName}]: ${verdict.blockingError}`;
      if (PERMISSION_EVENTS.has(event)) decide({ behavior: 'deny', reason: text, hookName });
      else result.blockingErrors.push(text);
    }
    if (verdict.plainStdout !== undefined && STDOUT_IS_CONTEXT.has(event)) {
      result.additionalContext.push(`${label} hook success: ${verdict.plainStdout}`);
    }
    if (!json) continue;

    if (json.continue === false && !result.preventContinuation) {
      result.preventContinuation = {
        stopReason: json.stopReason ?? `Stopped by the ${label} hook "${hookName}".`,
      };
    }
    if (json.systemMessage) result.systemMessages.push(json.systemMessage);

    let own: HookPermissionVerdict['behavior'] | undefined;
    if (json.decision && PERMISSION_EVENTS.has(event)) {
      own = json.decision === 'approve' ? 'allow' : 'deny';
      decide(withReason({ behavior: own, hookName }, json.reason));
    } else if (json.decision === 'block') {
      result.blockingErrors.push(`[${hookName}]: ${json.reason ?? 'blocked by the hook'}`);
    }

    const specific = json.hookSpecificOutput;
    if (!specific) continue;
    result.hookSpecificOutputs.push(specific);
    const decision = specific.permissionDecision;
    if (decision === 'allow' || decision === 'deny' || decision === 'ask') {
      // The hook-specific verdict is the current form and wins over the legacy `decision`.
      own = decision;
      const reason = specific.permissionDecisionReason;
      decide(withReason({ behavior: decision, hookName }, typeof reason === 'string' ? reason : json.reason));
    } else if (decision !== undefined && decision !== 'defer' && PERMISSION_EVENTS.has(event)) {
      // A verdict we cannot read may be a misspelt deny ("Deny", "block"): refuse, and say why.
      own = 'deny';
      const text = `[${hookName}]: permissionDecision ${JSON.stringify(decision)} is not allow, deny, ask or defer, so the call is refused; fix the hook's output`;
      decide({ behavior: 'deny', reason: text, hookName });
    }
    const updated = specific.updatedInput;
    if (isJsonObject(updated) && own !== 'deny' && own !== 'ask') result.updatedInput = updated;
    const context = specific.additionalContext;
    if (typeof context === 'string' && context.trim() !== '') {
      result.additionalContext.push(`${label} hook additional context: ${context}`);
    }
  }
  if (result.permissionDecision?.behavior === 'deny') delete result.updatedInput;
  return result;
}

function withReason(verdict: HookPermissionVerdict, reason: string | undefined): HookPermissionVerdict {
  return reason ? { ...verdict, reason } : verdict;
}
