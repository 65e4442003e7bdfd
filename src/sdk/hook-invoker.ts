/**
 * SDK callback hooks: their code lives in the host, so running one is a `hook_callback` control
 * request whose answer is the hook's `HookJSONOutput` (agent-sdk-protocol.md §9.2). Matching and
 * interpreting the output is the hook runner's job, exactly as for command hooks.
 */
import { effectiveHookTimeout } from '../config/hook-timeout';
import type { HookCallbackInvoker, HookJSONOutput, SdkHookMatcher } from '../hooks/types';
import { isHookEvent } from '../hooks/types';
import type { ControlChannel } from './control-channel';
import type { JsonObject } from './ndjson';

/**
 * `blocking` holds the callback ids registered with `onFailure: 'block'`: when such a callback
 * cannot be run (the host errs, or stdin has closed), the action it guards is blocked instead of
 * going ahead unchecked. Other failures throw, and the runner reports them as non-blocking.
 */
export function createHookCallbackInvoker(
  channel: ControlChannel,
  blocking: ReadonlySet<string> = new Set(),
): HookCallbackInvoker {
  return async ({ callbackId, input, toolUseId, signal }) => {
    const request: { subtype: string } & JsonObject = {
      subtype: 'hook_callback',
      callback_id: callbackId,
      input,
    };
    if (toolUseId !== undefined) request.tool_use_id = toolUseId;
    try {
      return (await channel.request(request, signal)) as HookJSONOutput;
    } catch (error) {
      if (signal.aborted || !blocking.has(callbackId)) throw error;
      return blockedByFailure(String(input.hook_event_name ?? ''), (error as Error).message);
    }
  };
}

function blockedByFailure(event: string, cause: string): HookJSONOutput {
  const reason = `The ${event || 'hook'} callback failed and is set to block on failure: ${cause}`;
  const output: HookJSONOutput = { decision: 'block', reason };
  if (event === 'PreToolUse') {
    output.hookSpecificOutput = {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: reason,
    };
  }
  return output;
}

/**
 * `initialize.hooks` → matchers. Events Yoke does not fire are returned separately so the caller
 * can say so instead of silently never calling them.
 */
export type ParsedSdkHooks = {
  matchers: SdkHookMatcher[];
  unsupportedEvents: string[];
  /** Timeouts not used as given (clamped, or replaced by the default), one line each. */
  timeoutProblems: string[];
  /** Callback ids whose matcher said `onFailure: 'block'`. */
  blocking: Set<string>;
};

export function parseSdkHooks(hooks: unknown): ParsedSdkHooks {
  const parsed: ParsedSdkHooks = {
    matchers: [],
    unsupportedEvents: [],
    timeoutProblems: [],
    blocking: new Set(),
  };
  const { matchers, unsupportedEvents, blocking } = parsed;
  if (!hooks || typeof hooks !== 'object') return parsed;
  for (const [event, entries] of Object.entries(hooks as Record<string, unknown>)) {
    if (!isHookEvent(event)) {
      unsupportedEvents.push(event);
      continue;
    }
    if (!Array.isArray(entries)) continue;
    for (const entry of entries as JsonObject[]) {
      const ids = Array.isArray(entry?.hookCallbackIds)
        ? entry.hookCallbackIds.filter((id): id is string => typeof id === 'string')
        : [];
      if (ids.length === 0) continue;
      const matcher: SdkHookMatcher = { event, callbackIds: ids };
      if (typeof entry.matcher === 'string') matcher.matcher = entry.matcher;
      if (entry.timeout !== undefined) {
        const timeout = effectiveHookTimeout(entry.timeout);
        matcher.timeout = timeout.seconds;
        if (timeout.problem) {
          parsed.timeoutProblems.push(
            `SDK ${event} hook (callbacks ${ids.join(', ')}): timeout ${JSON.stringify(entry.timeout)} ${timeout.problem}`,
          );
        }
      }
      matchers.push(matcher);
      if (entry.onFailure === 'block') for (const id of ids) blocking.add(id);
    }
  }
  return parsed;
}
