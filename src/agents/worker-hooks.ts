/**
 * A worker's hook runner. A worker keeps its runner for its whole run, which for a background
 * agent outlasts turns and plugin reloads; so the runner follows the session's instead of copying
 * it: the session's hooks are read at each event (hooks/runner.ts), and in a session that started
 * without hooks, whose runner a reload may grow later, the worker gets its scoped runner (its id
 * and type in every input, its definition's own hooks) from its first event after that growth.
 */
import type { HooksSettings } from '../config/settings-schema';
import { followingRunner } from '../hooks/growing-runner';
import type { AgentHookScope, HookRunner } from '../hooks/types';

export function workerHooks(
  session: HookRunner,
  scope: AgentHookScope,
  own: HooksSettings | undefined,
): HookRunner {
  let scoped: HookRunner | undefined;
  return followingRunner(() => {
    // A runner without `forAgent` (no hooks yet) serves the worker as it is, until one has it.
    if (!scoped && session.forAgent) scoped = session.forAgent(scope, own);
    return scoped ?? session;
  });
}
