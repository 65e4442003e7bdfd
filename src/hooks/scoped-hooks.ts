/** An agent's own hooks (its definition's `hooks`) on top of the session's. */
import type { HooksSettings } from '../config/settings-schema';

/**
 * The session's hooks plus an agent's own: appended after the session's, with the agent's `Stop`
 * running as SubagentStop (the agent file format says so).
 */
export function withScopedHooks(
  session: HooksSettings | undefined,
  scoped: HooksSettings | undefined,
): HooksSettings | undefined {
  if (!scoped || Object.keys(scoped).length === 0) return session;
  const merged: HooksSettings = { ...session };
  for (const [event, groups] of Object.entries(scoped)) {
    const name = event === 'Stop' ? 'SubagentStop' : event;
    merged[name] = [...(merged[name] ?? []), ...groups];
  }
  return merged;
}
