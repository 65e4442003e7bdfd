/**
 * Changed-file notices: at each turn boundary, the files the model has read are compared with
 * what it saw (readFileState's mtime, then the content hash), and the model is told briefly which
 * ones someone else changed or deleted since — the user in an editor, a formatter, a build, a
 * command it ran itself. A small change to a small file comes with its diff; the model then knows
 * the file as it is now, so its entry is brought up to date and an edit needs no new Read. Any
 * other change is named once (per version of the file), and the entry stays stale, so the edit
 * tools keep asking for a fresh Read. No diff is shown through a symbolic link: a file swapped for
 * a link to a secret must not show the secret when Read's permission check would not.
 */

import type { Stats } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { createUserMessage, type UserMessage } from '../../session/messages';
import { countChanges, formatPatchSnippet, makePatch } from '../../tools/builtin/shared/diff';
import { SNAPSHOT_MAX_BYTES, snapshotOf } from '../../tools/builtin/shared/file-snapshot';
import { hashContent } from '../../tools/builtin/shared/hash';
import type { ReadFileState } from '../../tools/read-file-state';

/** A diff longer than this is summarized by its line counts instead of shown. */
export const MAX_DIFF_LINES = 40;
/** Files above this size are not hashed at a boundary (Read does not record such files anyway). */
const MAX_CHECKED_BYTES = 16 * 1024 * 1024;

export const CHANGED_FILES_INTRO =
  'Files you read earlier have changed on disk since (not by your edit tools):';

type Change =
  | { path: string; kind: 'deleted' }
  | { path: string; kind: 'diff'; diff: string }
  | { path: string; kind: 'changed'; summary: string };

export class ChangedFiles {
  /**
   * Path → the change already reported without a diff (the version the model saw → the version on
   * disk), so each change is named once.
   */
  private readonly reported = new Map<string, string>();

  constructor(private readonly state: ReadFileState) {}

  /** The notice for what changed since the last check, or undefined when nothing did. */
  async check(): Promise<UserMessage | undefined> {
    const paths = this.state.paths();
    if (paths.length === 0) return undefined;
    const stats = await Promise.all(
      paths.map((path) =>
        stat(path).then(
          (info) => info,
          (error: NodeJS.ErrnoException) => error,
        ),
      ),
    );
    const changes: Change[] = [];
    for (let i = 0; i < paths.length; i++) {
      const change = await this.inspect(paths[i] as string, stats[i] as Stats | NodeJS.ErrnoException);
      if (change) changes.push(change);
    }
    return changes.length > 0 ? createUserMessage(render(changes), { isMeta: true }) : undefined;
  }

  private async inspect(path: string, info: Stats | NodeJS.ErrnoException): Promise<Change | undefined> {
    const entry = this.state.peek(path);
    if (!entry) return undefined;
    if (info instanceof Error) {
      if (info.code !== 'ENOENT') return undefined;
      this.state.delete(path);
      this.reported.delete(path);
      return { path, kind: 'deleted' };
    }
    if (!info.isFile() || info.mtimeMs === entry.mtimeMs || info.size > MAX_CHECKED_BYTES) return undefined;
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch {
      return undefined;
    }
    const hash = hashContent(bytes);
    if (hash === entry.hash) {
      // Touched, not changed: remember the new mtime so the file is not hashed at every boundary.
      this.state.update(path, { ...entry, mtimeMs: info.mtimeMs });
      return undefined;
    }
    const change = `${entry.hash}→${hash}`;
    if (this.reported.get(path) === change) return undefined;
    // A diff shows content: only of the file the path itself names. Through a symbolic link it
    // could be any file (one a Read rule denies), swapped in after the model read this path.
    if (!(await leadsNowhereElse(path))) {
      this.reported.set(path, change);
      return { path, kind: 'changed', summary: 'it leads through a symbolic link, so no diff is shown' };
    }
    const now =
      entry.snapshot !== undefined && bytes.length <= SNAPSHOT_MAX_BYTES
        ? snapshotOf(path, bytes)
        : undefined;
    if (entry.snapshot !== undefined && now !== undefined) {
      const hunks = makePatch(path, entry.snapshot, now);
      const lines = hunks.reduce((sum, h) => sum + h.lines.length + 1, 0);
      if (lines <= MAX_DIFF_LINES) {
        this.state.update(path, { hash, mtimeMs: info.mtimeMs, readAt: Date.now(), snapshot: now });
        this.reported.delete(path);
        return { path, kind: 'diff', diff: formatPatchSnippet(hunks, MAX_DIFF_LINES) };
      }
      const { added, removed } = countChanges(hunks);
      this.reported.set(path, change);
      return { path, kind: 'changed', summary: `${added} lines added, ${removed} removed` };
    }
    this.reported.set(path, change);
    return { path, kind: 'changed', summary: 'content differs' };
  }
}

/** True when no symbolic link lies on the path: it resolves to itself. */
async function leadsNowhereElse(path: string): Promise<boolean> {
  try {
    return (await realpath(path)) === path;
  } catch {
    return false;
  }
}

function render(changes: readonly Change[]): string {
  const parts = changes.map((change) => {
    if (change.kind === 'deleted') return `- ${change.path} was deleted.`;
    if (change.kind === 'diff') return `- ${change.path} changed:\n${change.diff}`;
    return `- ${change.path} changed (${change.summary}). Read it again before relying on what you saw or editing it.`;
  });
  return `${CHANGED_FILES_INTRO}\n${parts.join('\n')}`;
}
