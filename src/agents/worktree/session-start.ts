/**
 * `--worktree` / `--worktree=name` for the main session: the session starts in a new worktree
 * (its cwd, project root, settings, memory files and transcript folder are the worktree's) and,
 * when it ends, the worktree is finished by the rule — removed when unchanged, kept and reported
 * otherwise. The composition root calls `sessionWorktree` before anything reads the cwd, and
 * `attach` once the session's services exist.
 *
 * The worktree is made from the configuration of the folder the user started in (`origin`, read
 * only when the flag is given): where it has WorktreeCreate hooks they make the worktree instead
 * of git — so the folder need not be a git repository at all — and the same configuration's
 * WorktreeRemove hooks end it; otherwise git makes it, shaped by the `worktree` settings.
 * `--worktree=name` reopens the git worktree of that name when an earlier session kept it; with a
 * hook, the hook is asked again with the same name (whether that reuses a folder is its choice).
 */
import type { HookRunner } from '../../hooks/types';
import type { Env } from '../../model/types';
import { GitConfigSafety } from '../../permissions/git-config-safety';
import type { SessionServices } from '../../tools/session-services';
import {
  attachSessionWorktrees,
  describeOutcome,
  FLAG_WORKTREE,
  type MadeWorktree,
} from './session-worktrees';
import { parseWorktreeName, randomWorktreeName, type WorktreeName } from './worktree-name';
import type { WorktreeSettings } from './worktree-settings';
import { createWorktree, type Worktree, WorktreeError } from './worktrees';

export class WorktreeFlagError extends Error {
  override name = 'WorktreeFlagError';
}

/** What the starting folder's configuration says about making the session's worktree. */
export type WorktreeStartConfig = {
  /** A runner for the folder's hooks; given only when a WorktreeCreate hook is configured there. */
  hooks?: HookRunner;
  /** The `worktree` settings for a worktree git makes. */
  settings?: WorktreeSettings;
};

export type SessionWorktreeStart = {
  /** Where the session runs: the worktree, or the cwd it was given. */
  cwd: string;
  made?: MadeWorktree;
  /** Gives the session its worktrees (and the flag's worktree to finish at the end). */
  attach(services: SessionServices): void;
};

/**
 * `flag`: undefined without `--worktree`, true for a bare `--worktree` (a random name), or the
 * name. A bad name, a failing hook or a folder that is no repository (and has no hook) stops the
 * start with one readable line.
 */
export async function sessionWorktree(
  flag: string | true | undefined,
  cwd: string,
  env: Env,
  log: { warn(text: string): void; debug(text: string): void },
  origin: () => Promise<WorktreeStartConfig> = async () => ({}),
): Promise<SessionWorktreeStart> {
  const attach = (made: MadeWorktree | undefined) => (services: SessionServices) => {
    const worktrees = attachSessionWorktrees(services, env, (outcome) => log.warn(describeOutcome(outcome)));
    // A hook's folder is a copy of the project Yoke cannot tell from git's files.
    if (made?.madeBy === 'hook') services.copies.add(made.worktree.path, cwd);
    if (made)
      worktrees.enter(FLAG_WORKTREE, { ...made, origin: 'flag', originalCwd: cwd, originalProjectRoot: cwd });
  };
  if (flag === undefined) return { cwd, attach: attach(undefined) };
  let name = randomWorktreeName('session');
  if (flag !== true) {
    const check = parseWorktreeName(flag);
    if (!check.ok) throw new WorktreeFlagError(`--worktree: ${check.problem}`);
    name = check.name;
  }
  const config = await origin();
  const byHook = config.hooks ? await hookWorktree(config.hooks, name) : undefined;
  const made = byHook ?? (await gitWorktree(cwd, name, env, flag !== true, config.settings));
  log.debug(
    made.madeBy === 'hook'
      ? `working in ${made.worktree.path}, made by the WorktreeCreate hook`
      : `${made.worktree.createdHere ? 'working in the new' : 'reopened the'} worktree ${made.worktree.path} (branch ${made.worktree.branch})`,
  );
  return { cwd: made.worktree.path, made, attach: attach(made) };
}

/** Asks the WorktreeCreate hooks; undefined when none ran after all (git makes it then, as for agents). */
async function hookWorktree(hooks: HookRunner, name: WorktreeName): Promise<MadeWorktree | undefined> {
  // Nothing can cancel a start half-way but the process's end; the hooks' own timeouts bound them.
  const made = await hooks.worktreeCreate?.({ name }, new AbortController().signal);
  if (!made?.handled) return undefined;
  if ('error' in made) throw new WorktreeFlagError(`--worktree: no worktree was made: ${made.error}.`);
  return { madeBy: 'hook', worktree: { path: made.path, name, hooks } };
}

async function gitWorktree(
  cwd: string,
  name: WorktreeName,
  env: Env,
  reuseExisting: boolean,
  settings: WorktreeSettings | undefined,
): Promise<MadeWorktree> {
  // As for isolated agents and EnterWorktree: checking files out (and the status check at the
  // end) would run the filters and drivers the repository's own configuration names.
  const safety = new GitConfigSafety({ env });
  const verdict = await safety.check(cwd);
  if (!verdict.harmless)
    throw new WorktreeFlagError(
      `--worktree: no worktree is made: checking files out would run what this repository's git configuration names (${verdict.reason}).`,
    );
  let worktree: Worktree;
  try {
    worktree = await createWorktree({
      cwd,
      name,
      env,
      reuseExisting,
      ...(settings ? { settings } : {}),
    });
  } catch (error) {
    if (error instanceof WorktreeError) throw new WorktreeFlagError(`--worktree: ${error.message}`);
    throw error;
  }
  // A kept worktree may have a configuration of its own (`config.worktree`); reopening it ran
  // nothing yet, and it stays as it was.
  if (!worktree.createdHere) {
    const own = await safety.check(worktree.path);
    if (!own.harmless)
      throw new WorktreeFlagError(
        `--worktree: the worktree ${worktree.path} is not reopened: git there would run what its configuration names (${own.reason}).`,
      );
  }
  return { madeBy: 'git', worktree };
}
