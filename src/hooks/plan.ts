/**
 * Selects the hooks one event runs: the settings' command hooks and the SDK host's callbacks
 * whose matcher selects the target and, on tool events, whose `if` rule matches the call.
 * Identical commands from several settings files run once.
 */
import { effectiveHookTimeout } from '../config/hook-timeout';
import type { HooksSettings } from '../config/settings-schema';
import { type RuleCall, type RuleCallRoots, ruleMatchesCall } from '../permissions/rule-matches-call';
import { ruleTextProblem } from '../permissions/rule-problems';
import { isInvalidMatcher, matchesTarget } from './matcher';
import type { HookEvent, SdkHookMatcher } from './types';

export type PlannedHook =
  | {
      kind: 'command';
      name: string;
      command: string;
      args?: string[];
      timeoutSeconds: number;
      onFailure?: 'continue' | 'block';
      /** A plugin's hook: run with `CLAUDE_PLUGIN_ROOT` set to this folder. */
      pluginRoot?: string;
    }
  | { kind: 'callback'; name: string; callbackId: string; timeoutSeconds: number };

export type PlanProblem = { key: string; message: string };

/** Events about one tool call: the ones where a handler's `if` rule can be checked (compat-surface §2.2). */
export const CONDITIONAL_EVENTS: ReadonlySet<HookEvent> = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
]);

/** The call a tool event is about, for `if` conditions. */
export type PlannedToolCall = RuleCall & { roots: RuleCallRoots };

export async function planHooks(
  event: HookEvent,
  target: string | undefined,
  settingsHooks: HooksSettings | undefined,
  sdkMatchers: readonly SdkHookMatcher[],
  call?: PlannedToolCall,
): Promise<{ hooks: PlannedHook[]; problems: PlanProblem[] }> {
  const hooks: PlannedHook[] = [];
  const problems: PlanProblem[] = [];
  const seen = new Set<string>();
  // Several handlers often share one condition; the Bash parse behind it is done once per call.
  const verdicts = new Map<string, Promise<boolean>>();
  const conditionHolds = (rule: string) => {
    let verdict = verdicts.get(rule);
    if (!verdict) {
      verdict = call ? ruleMatchesCall(rule, call, call.roots) : Promise.resolve(false);
      verdicts.set(rule, verdict);
    }
    return verdict;
  };

  for (const group of settingsHooks?.[event] ?? []) {
    if (isInvalidMatcher(group.matcher)) {
      const key = `matcher:${event}:${group.matcher}`;
      problems.push({
        key,
        message: `${event} hook matcher "${group.matcher}" is not a valid regex; it matches nothing`,
      });
    }
    if (!matchesTarget(group.matcher, target)) continue;
    for (const handler of group.hooks) {
      if (handler.type !== 'command' || handler.command === undefined) {
        const key = `type:${handler.type}`;
        problems.push({
          key,
          message: `${event} hooks of type "${handler.type}" are not supported by Yoke; skipped`,
        });
        continue;
      }
      const condition = handler.if;
      if (condition !== undefined) {
        if (!CONDITIONAL_EVENTS.has(event)) {
          // Claude Code documents `if` as a filter on single tool calls; elsewhere there is no call.
          problems.push({
            key: `if-ignored:${event}`,
            message: `${event} hooks have no tool call to test an "if" condition against; "if" is ignored`,
          });
        } else {
          const problem = typeof condition === 'string' ? ruleTextProblem(condition) : 'it is not a string';
          if (problem !== undefined) {
            // Skipping the hook would drop its verdict (fail open); it runs as if unconditioned.
            problems.push({
              key: `if:${event}:${JSON.stringify(condition)}`,
              message: `${event} hook "${handler.command}" has an "if" condition ${JSON.stringify(condition)} that cannot be read (${problem}; expected a permission rule like "Bash(git push:*)"); the hook runs on every ${event} until it is fixed`,
            });
          } else if (!(await conditionHolds(condition as string))) continue;
        }
      }
      // Deduplicated only after the condition: a same command elsewhere without `if` must still run.
      // Two plugins may ship the same `${CLAUDE_PLUGIN_ROOT}/…` command: each is its own hook.
      const pluginRoot = typeof handler.pluginRoot === 'string' ? handler.pluginRoot : undefined;
      const identity = JSON.stringify([handler.command, handler.args ?? null, pluginRoot ?? null]);
      if (seen.has(identity)) continue;
      seen.add(identity);
      const name = handler.args ? [handler.command, ...handler.args].join(' ') : handler.command;
      const planned: PlannedHook = {
        kind: 'command',
        name,
        command: handler.command,
        // Settings arrive normalized; this also holds for any other way a handler is built.
        timeoutSeconds: effectiveHookTimeout(handler.timeout).seconds,
      };
      if (handler.args) planned.args = handler.args;
      if (handler.onFailure) planned.onFailure = handler.onFailure;
      if (pluginRoot) planned.pluginRoot = pluginRoot;
      hooks.push(planned);
    }
  }

  for (const matcher of sdkMatchers) {
    if (matcher.event !== event || !matchesTarget(matcher.matcher, target)) continue;
    for (const callbackId of matcher.callbackIds) {
      hooks.push({
        kind: 'callback',
        name: `callback ${callbackId}`,
        callbackId,
        timeoutSeconds: effectiveHookTimeout(matcher.timeout).seconds,
      });
    }
  }
  return { hooks, problems };
}
