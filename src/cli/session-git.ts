/**
 * The session's git: one checker of repository configuration (GitConfigSafety) for the permission
 * checks and the system prompt, and the prompt's git status. Both must see the environment the
 * Bash tool's git will run with, which the settings' `env` may change; yet git is on the way to
 * the first request, so it starts before the settings are read, in the process's environment,
 * and starts again in the session's only when the settings changed a variable.
 */
import { type GitFacts, gatherGitStatus } from '../engine/environment';
import type { Env } from '../model/types';
import { GitConfigSafety } from '../permissions/git-config-safety';

export type SessionGit = { gitConfig: GitConfigSafety; facts: Promise<GitFacts> };

function start(cwd: string, env: Env): SessionGit {
  const gitConfig = new GitConfigSafety({ env });
  return { gitConfig, facts: gatherGitStatus(cwd, { env, gitConfig }) };
}

/** Starts git in `env`; `settle` gives the session's git once the session's environment is known. */
export function startSessionGit(cwd: string, env: Env): { settle(sessionEnv: Env): SessionGit } {
  const early = start(cwd, env);
  return {
    settle(sessionEnv) {
      const keys = new Set([...Object.keys(env), ...Object.keys(sessionEnv)]);
      if ([...keys].every((key) => env[key] === sessionEnv[key])) return early;
      // Its answer is for another environment; nothing waits for it.
      early.facts.catch(() => {});
      return start(cwd, sessionEnv);
    },
  };
}
