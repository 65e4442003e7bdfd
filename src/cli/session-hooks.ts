/**
 * The session's hook runner: settings-defined command hooks (none in `--bare` mode) and the SDK
 * host's callback hooks. The runner's module loads only when some hook can run.
 */
import type { HooksSettings } from '../config/settings-schema';
import { growingHooks } from '../hooks/growing-runner';
import type { HookLifecycle, HookRunner } from '../hooks/types';
import { noopHooks } from '../hooks/types';
import type { Env } from './session-settings';
import type { SessionSetupOptions } from './session-types';

type QueryEngineType = import('../engine/query-engine').QueryEngine;

/**
 * `engine` is read lazily because hook input carries its session id and live permission mode.
 * Hook problems (timeouts, bad output) reach the user through `report`.
 */
export async function sessionHooks(
  options: SessionSetupOptions,
  settingsHooks: HooksSettings | undefined,
  env: Env,
  cwd: string,
  live: {
    sessionId: string;
    transcriptPath: string;
    engine: () => QueryEngineType | undefined;
    /** An agent definition brings hooks of its own: its workers need a runner. */
    agentHooks: boolean;
  },
  report: (text: string, level: string) => void,
  onLifecycle: (event: HookLifecycle) => void,
  /** Skills may add hooks later (their `hooks:`), so even none now needs a runner. */
  mayGrow = false,
): Promise<HookRunner> {
  const sdk = options.sdkHooks && options.sdkHooks.matchers.length > 0 ? options.sdkHooks : undefined;
  const commands = options.bare ? undefined : settingsHooks;
  if (!sdk && !mayGrow && (!commands || Object.keys(commands).length === 0) && !live.agentHooks)
    return noopHooks;
  const { createHookRunner } = await import('../hooks/runner');
  return createHookRunner({
    settingsHooks: commands,
    sdkHooks: sdk ? { matchers: [...sdk.matchers], invoke: sdk.invoke } : undefined,
    base: () => ({
      session_id: live.sessionId,
      transcript_path: live.transcriptPath,
      cwd: live.engine()?.currentCwd ?? cwd,
      permission_mode: live.engine()?.permissionMode ?? options.permissionMode ?? 'default',
    }),
    env,
    projectDir: cwd,
    onMessage: report,
    onLifecycle,
  });
}

/**
 * The session's runner in a slot that can grow: a session started without hooks runs without a
 * runner, and a reload that brings the first plugin hooks makes the real one (`ensureRunner`).
 */
export async function growingSessionHooks(
  make: (mayGrow: boolean) => Promise<HookRunner>,
  skillsMayAddHooks: boolean,
): Promise<{ runner: HookRunner; ensureRunner(): Promise<void> }> {
  const start = await make(skillsMayAddHooks);
  const slot = growingHooks(start, start !== noopHooks);
  return { runner: slot.runner, ensureRunner: () => slot.grow(() => make(true)) };
}
