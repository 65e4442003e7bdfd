/**
 * Where the next command starts. A `cd` persists between calls only inside the project (or a
 * directory the user added); a command that leaves it is not followed, and the model is told.
 */
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { relativeWithin } from '../../../lib/path-within';
import type { ToolUseContext } from '../../context';

export type CwdOutcome =
  /** Same directory as before: nothing to change. */
  | { kind: 'unchanged' }
  /** Moved to another directory inside an allowed root: `cwd` is spelled under that root. */
  | { kind: 'moved'; cwd: string }
  /** Ended outside every allowed root: the old cwd stays. */
  | { kind: 'outside'; attempted: string };

async function physical(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return path;
  }
}

/**
 * Judges the shell's final physical directory. The result keeps the root's own spelling (a
 * project opened through a symlink stays under that path), so paths the model sees stay stable.
 */
export async function resolveNextCwd(context: ToolUseContext, finalCwd: string): Promise<CwdOutcome> {
  if (finalCwd === (await physical(context.cwd))) return { kind: 'unchanged' };
  const roots = [context.projectRoot, ...context.getPermissionContext().additionalDirectories];
  for (const root of roots) {
    const rel = relativeWithin(await physical(root), finalCwd);
    if (rel === undefined) continue;
    const cwd = rel === '' ? root : join(root, rel);
    return cwd === context.cwd ? { kind: 'unchanged' } : { kind: 'moved', cwd };
  }
  return { kind: 'outside', attempted: finalCwd };
}
