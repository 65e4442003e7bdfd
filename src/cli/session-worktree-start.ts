/**
 * The composition root's worktree step. `--worktree` needs the configuration of the folder the
 * user started in before the worktree exists: the settings as the session would apply them (the
 * folder's trust, `--bare`, `--setting-sources`, `--settings`, managed policy), the enabled
 * plugins' hooks and the SDK host's callbacks — for its WorktreeCreate/WorktreeRemove hooks and
 * its `worktree` settings. All of that is read only when the flag is given (with the same
 * modules the session's own steps use); a run without it reads nothing more than before.
 */
import { randomUUID } from 'node:crypto';
import {
  type SessionWorktreeStart,
  sessionWorktree,
  type WorktreeStartConfig,
} from '../agents/worktree/session-start';
import type { HooksSettings } from '../config/settings-schema';
import { isSessionId, transcriptPath } from '../session/transcript-paths';
import { applySessionSettings } from './session-applied-settings';
import { loadPluginsForSession } from './session-extensions';
import { sessionHooks } from './session-hooks';
import type { Env } from './session-settings';
import type { SessionLog, SessionSetupOptions } from './session-types';

export type SessionWorktreeStep = SessionWorktreeStart & {
  /** The id a new session takes: chosen before the worktree, so the WorktreeCreate hook is told it. */
  freshSessionId?: string;
};

export async function startSessionWorktree(
  options: SessionSetupOptions,
  cwd: string,
  env: Env,
  log: SessionLog,
): Promise<SessionWorktreeStep> {
  if (options.worktree === undefined) return sessionWorktree(undefined, cwd, env, log);
  const freshSessionId = randomUUID();
  const ids = { sessionId: hookSessionId(options, freshSessionId), cwd };
  const start = await sessionWorktree(options.worktree, cwd, env, log, () =>
    startingFolderConfig(options, env, cwd, ids, log),
  );
  return { ...start, freshSessionId };
}

/**
 * The session id the hooks are told: the one the session will have where it is known before the
 * worktree exists (`--session-id`, a new or forked session, `--resume <id>`); empty where only the
 * worktree's own transcripts can say (`--continue`, `--resume` by title).
 */
function hookSessionId(options: SessionSetupOptions, fresh: string): string {
  if (options.sessionId !== undefined) return options.sessionId;
  const resuming = options.resume !== undefined || options.continue === true;
  if (!resuming || options.forkSession) return fresh;
  return options.resume !== undefined && isSessionId(options.resume) ? options.resume : '';
}

async function startingFolderConfig(
  options: SessionSetupOptions,
  env: Env,
  cwd: string,
  ids: { sessionId: string; cwd: string },
  log: SessionLog,
): Promise<WorktreeStartConfig> {
  const { settings, trust, applied, sessionEnv } = await applySessionSettings(options, env, cwd);
  const worktreeSettings = applied.worktree ? { settings: applied.worktree } : {};
  const { hookSettings } = await loadPluginsForSession(
    { options, cwd, env: sessionEnv, settingsSources: settings.loaded.sources, trusted: trust.trusted },
    applied.hooks,
  );
  const commands = options.bare ? undefined : hookSettings;
  if (!configuresWorktreeCreate(commands, options)) return worktreeSettings;
  const hooks = await sessionHooks(
    options,
    commands,
    sessionEnv,
    cwd,
    {
      sessionId: ids.sessionId,
      // Where the transcript would be in the starting folder (as Claude Code tells it): the
      // worktree's own folder is known only once the hook has answered.
      transcriptPath: ids.sessionId ? transcriptPath(sessionEnv, cwd, ids.sessionId) : '',
      engine: () => undefined,
      agentHooks: false,
    },
    // A failure of either event comes back in its outcome, which the start's error line or the
    // end's kept line says; the runner's own copy of it is for --debug.
    (text) => log.debug(text),
    // No engine yet, so no stream-json frames to carry the hook's lifecycle.
    () => {},
  );
  return { ...worktreeSettings, hooks };
}

function configuresWorktreeCreate(
  commands: HooksSettings | undefined,
  options: SessionSetupOptions,
): boolean {
  if ((commands?.WorktreeCreate ?? []).length > 0) return true;
  return (options.sdkHooks?.matchers ?? []).some((matcher) => matcher.event === 'WorktreeCreate');
}
