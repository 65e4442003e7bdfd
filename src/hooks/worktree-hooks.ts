/**
 * WorktreeCreate and WorktreeRemove (compat-surface §2.4): when a WorktreeCreate hook is
 * configured it makes the worktree instead of git — any version control, any layout — and gives
 * its absolute path: a command hook prints it on stdout (its last line), an SDK callback returns
 * `hookSpecificOutput.worktreePath`. WorktreeRemove hooks get `worktree_path` when such a worktree
 * is to go. A hook's answer is only a claim: the path must be absolute and an existing folder.
 */
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { HookRunResult } from './combine';
import type { WorktreeHookOutcome } from './types';

/** The path a WorktreeCreate run gave, or why there is none, in one line. */
export function worktreeCreateOutcome(result: HookRunResult): WorktreeHookOutcome {
  if (result.verdicts.length === 0) return { handled: false };
  const failure = [...result.blockingErrors, ...result.errors][0];
  if (failure) return { handled: true, error: `the WorktreeCreate hook failed: ${failure}` };
  const given = [
    ...result.hookSpecificOutputs.map((output) => output.worktreePath),
    ...result.verdicts.map((verdict) => verdict.plainStdout?.trim().split('\n').at(-1)),
  ].find((path): path is string => typeof path === 'string' && path.trim() !== '');
  if (!given) return { handled: true, error: 'the WorktreeCreate hook gave no path (print it on stdout)' };
  const path = given.trim();
  if (!isAbsolute(path))
    return {
      handled: true,
      error: `the WorktreeCreate hook gave ${JSON.stringify(path)}, not an absolute path`,
    };
  let folder = false;
  try {
    folder = statSync(path).isDirectory();
  } catch {
    folder = false;
  }
  if (!folder)
    return { handled: true, error: `the WorktreeCreate hook gave ${path}, which is not an existing folder` };
  return { handled: true, path };
}

/** Whether WorktreeRemove hooks ran, and the first failure among them. */
export function worktreeRemoveOutcome(result: HookRunResult, path: string): WorktreeHookOutcome {
  if (result.verdicts.length === 0) return { handled: false };
  const failure = [...result.blockingErrors, ...result.errors][0];
  return failure
    ? { handled: true, error: `the WorktreeRemove hook failed: ${failure}` }
    : { handled: true, path };
}
