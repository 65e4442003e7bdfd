/**
 * A tool context whose permission rules include extra allow rules: what a slash command's or a
 * skill's `allowed-tools` grant while it runs. The session's own rules (its deny and ask rules
 * first among them) stay as they are, and are read live as before.
 */
import type { PermissionRule } from '../permissions/types';
import type { ToolUseContext } from './context';

export function withAllowRules(
  context: ToolUseContext,
  allowRules: readonly PermissionRule[],
): ToolUseContext {
  if (allowRules.length === 0) return context;
  const base = context.getPermissionContext;
  return {
    ...context,
    getPermissionContext: () => {
      const current = base();
      return { ...current, rules: [...current.rules, ...allowRules] };
    },
  };
}
