/**
 * The coordinator session's scratchpad: a folder only this user can enter (mode 0700), outside
 * the project, where workers leave findings for each other and for the coordinator
 * (`<tmp>/yoke-<uid>/<project slug>/<session id>/scratchpad`). File tools read and write there
 * without a prompt (`ToolPermissionContext.scratchpadDirectories`, judged on real paths).
 *
 * `/tmp` is shared: another user may have made `yoke-<uid>` first, or planted a symlink on the
 * way. Each level is made with mode 0700 and then checked with `lstat` — a real folder, owned by
 * this user, that nobody else can enter — so the scratchpad cannot be a folder someone else
 * reads or a link into theirs.
 */
import { chmodSync, lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class ScratchpadError extends Error {
  override name = 'ScratchpadError';
}

/** The project folder as one safe path segment: `/home/u/proj` → `-home-u-proj`. */
export const projectSlug = (cwd: string): string => cwd.replace(/[^A-Za-z0-9._-]/g, '-').slice(-120);

function uid(): number {
  return typeof process.getuid === 'function' ? process.getuid() : 0;
}

/** Makes (or checks) one private folder level. */
function privateFolder(path: string): void {
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = lstatSync(path);
  if (stat.isSymbolicLink() || !stat.isDirectory())
    throw new ScratchpadError(
      `${path} is not a real folder (a symlink or a file is in its place); no scratchpad is made.`,
    );
  if (typeof process.getuid === 'function' && stat.uid !== uid())
    throw new ScratchpadError(`${path} belongs to another user; no scratchpad is made there.`);
  // Ours: whatever mode it was made with (umask, an earlier run), nobody else may enter it.
  if ((stat.mode & 0o077) !== 0) chmodSync(path, 0o700);
}

/** Creates the session's scratchpad and returns its real path. */
export function createScratchpad(options: { cwd: string; sessionId: string; tmp?: string }): string {
  const base = realpathSync(options.tmp ?? tmpdir());
  const levels = [`yoke-${uid()}`, projectSlug(options.cwd), options.sessionId, 'scratchpad'];
  let path = base;
  for (const level of levels) {
    path = join(path, level);
    privateFolder(path);
  }
  return path;
}
