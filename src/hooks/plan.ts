/**
 * Selects the hooks one event runs: the settings' command hooks and the SDK host's callbacks
 * whose matcher selects the target. Identical commands from several settings files run once.
 */
import type { HooksSettings } from '../config/settings-schema';
import { isInvalidMatcher, matchesTarget } from './matcher';
import type { SdkHookMatcher } from './types';

/** Seconds; the issue sets 60 s for every hook kind (Claude Code's docs say 600 s for commands). */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

export type PlannedHook =
  | {
      kind: 'command';
      name: string;
      command: string;
      args?: string[];
      timeoutSeconds: number;
      onFailure?: 'continue' | 'block';
    }
  | { kind: 'callback'; name: string; callbackId: string; timeoutSeconds: number };

export type PlanProblem = { key: string; message: string };

export function planHooks(
  event: string,
  target: string | undefined,
  settingsHooks: HooksSettings | undefined,
  sdkMatchers: readonly SdkHookMatcher[],
): { hooks: PlannedHook[]; problems: PlanProblem[] } {
  const hooks: PlannedHook[] = [];
  const problems: PlanProblem[] = [];
  const seen = new Set<string>();

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
      const identity = JSON.stringify([handler.command, handler.args ?? null]);
      if (seen.has(identity)) continue;
      seen.add(identity);
      const name = handler.args ? [handler.command, ...handler.args].join(' ') : handler.command;
      const planned: PlannedHook = {
        kind: 'command',
        name,
        command: handler.command,
        timeoutSeconds: handler.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS,
      };
      if (handler.args) planned.args = handler.args;
      if (handler.onFailure) planned.onFailure = handler.onFailure;
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
        timeoutSeconds: matcher.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS,
      });
    }
  }
  return { hooks, problems };
}
