/**
 * The file tools' preconditions, checked as their `validateInput` — before the PreToolUse hooks
 * and the permission question — so a person is never asked to approve an edit that would only
 * fail ("read it first", "modified since", "old_string not found"). The call checks again, since
 * the file may change while the question waits.
 *
 * What the check may look at before anyone approved the call: a file the model has not read is
 * only `stat`ed (whether it exists and is a file — no content is opened, no folder listed);
 * the full check, which reads the file, runs only for a file the model was already allowed to read.
 */
import type { Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isInsideAny } from '../../../permissions/path-rules';
import type { ToolUseContext } from '../../context';
import { ToolError, type ValidationResult } from '../../tool';
import { notReadText, tooLargeText } from './freshness';
import { isNotFound } from './fs-errors';
import { describeSpecialFile, formatSize, MAX_WHOLE_FILE_BYTES, specialFileRefusal } from './regular-file';

export type ChangePrecheck = {
  /**
   * Why a missing file cannot be changed (Edit with an old_string, NotebookEdit); absent when the
   * tool creates it. `listable` says whether naming similar files is allowed: only inside the
   * folders the session works in, since nobody approved a look into any other folder.
   */
  missing?: (listable: boolean) => Promise<string>;
  /** The tool's own dry run on a file the model has read; throws ToolError when the call would fail. */
  dryRun: () => Promise<unknown>;
};

export async function precheckFileChange(
  context: ToolUseContext,
  path: string,
  check: ChangePrecheck,
): Promise<ValidationResult> {
  if (context.readFileState.get(path)) return refusalOf(check.dryRun);
  let info: Stats;
  try {
    info = await stat(path);
  } catch (error) {
    // Any other failure (EACCES, ENOTDIR) is for the call to word, as it would after a read.
    if (!isNotFound(error) || !check.missing) return { ok: true };
    return { ok: false, message: await check.missing(await inWorkspace(context, path)) };
  }
  // What the file is decides first: no amount of reading makes a FIFO or a 1 GB log editable.
  // A directory is left to the call, whose wording differs by tool.
  if (info.isDirectory()) return { ok: true };
  const special = describeSpecialFile(info);
  if (special) return { ok: false, message: await specialFileRefusal(path, special, 'change') };
  if (info.size > MAX_WHOLE_FILE_BYTES)
    return { ok: false, message: tooLargeText(path, formatSize(info.size)) };
  return { ok: false, message: notReadText(path) };
}

async function refusalOf(dryRun: () => Promise<unknown>): Promise<ValidationResult> {
  try {
    await dryRun();
    return { ok: true };
  } catch (error) {
    if (error instanceof ToolError) return { ok: false, message: error.messageForModel };
    throw error;
  }
}

/** The missing file's folder, resolved, is inside the session's working folders. */
async function inWorkspace(context: ToolUseContext, path: string): Promise<boolean> {
  const folder = await realpath(dirname(path)).catch(() => undefined);
  if (!folder) return false;
  const roots = [context.cwd, context.projectRoot, ...context.getPermissionContext().additionalDirectories];
  const resolved = await Promise.all(roots.map((root) => realpath(root).catch(() => root)));
  return isInsideAny(folder, resolved);
}
