/**
 * The "read before you write" rule: a tool may only change a file the model has read in this
 * conversation and that nobody changed since, so an edit never clobbers work it has not seen.
 */
import { stat } from 'node:fs/promises';
import type { ToolUseContext } from '../../context';
import type { ReadFileEntry } from '../../read-file-state';
import { ToolError } from '../../tool';
import { readSnapshot, snapshotOf } from './file-snapshot';
import { hashContent } from './hash';
import { MAX_WHOLE_FILE_BYTES, readWholeRegularFile } from './regular-file';

export type FreshFile = {
  bytes: Buffer;
  mtimeMs: number;
  hash: string;
  /** The state entry as it was before this call (its `partial` marker carries over edits). */
  entry: ReadFileEntry;
};

export type FreshnessOptions = {
  /** Refuse when only part of the file was read (overwriting it whole needs the whole view). */
  requireFullRead?: boolean;
};

export function notReadText(path: string): string {
  return `${path} has not been read in this conversation. Read it first, then retry.`;
}

/** Why a file over MAX_WHOLE_FILE_BYTES cannot be changed by the file tools, and what can. */
export function tooLargeText(path: string, size: string): string {
  return (
    `${path} is ${size}; Edit, MultiEdit, Write and NotebookEdit change files up to ${MAX_WHOLE_FILE_BYTES / 1024 / 1024} MB. ` +
    "Change it with Bash instead (e.g. `sed -i 's/old/new/' FILE`)."
  );
}

/**
 * Loads an existing regular file (up to MAX_WHOLE_FILE_BYTES) and checks it against
 * readFileState; throws ToolError when it cannot be changed or is stale.
 */
export async function loadFreshFile(
  context: ToolUseContext,
  path: string,
  options: FreshnessOptions = {},
): Promise<FreshFile> {
  // What the file is decides first: no amount of reading makes a FIFO or a 1 GB log editable.
  const { bytes, info } = await readWholeRegularFile(path, {
    purpose: 'change',
    signal: context.abortSignal,
    tooLarge: (size) => tooLargeText(path, size),
  });
  const entry = context.readFileState.get(path);
  if (!entry) {
    throw new ToolError(notReadText(path));
  }
  if (options.requireFullRead && entry.partial) {
    throw new ToolError(
      `Only part of ${path} has been read. Read the whole file before overwriting it, or use Edit to change a part of it.`,
    );
  }
  const mtimeMs = info.mtimeMs;
  const hash = hashContent(bytes);
  // The bytes decide, not the mtime: a `touch` or a no-op formatter run is not a change, and a
  // rewrite within the same mtime tick still is.
  if (hash !== entry.hash) {
    throw new ToolError(
      `${path} was modified since you last read it (by the user, a formatter or another process). Read it again, then retry.`,
    );
  }
  return { bytes, mtimeMs, hash, entry };
}

/** Records what the model now knows of a file, after a read or after a tool wrote it. */
export async function recordFileState(
  context: ToolUseContext,
  path: string,
  bytes: Uint8Array,
  partial?: ReadFileEntry['partial'],
): Promise<void> {
  const { mtimeMs } = await stat(path);
  setEntry(context, path, { hash: hashContent(bytes), mtimeMs }, partial, () => snapshotOf(path, bytes));
}

/** recordFileState for a caller that hashed the bytes as it streamed them. */
export async function recordFileHash(
  context: ToolUseContext,
  path: string,
  hash: string,
  partial?: ReadFileEntry['partial'],
): Promise<void> {
  const { mtimeMs, size } = await stat(path);
  const snapshot = partial ? undefined : await readSnapshot(path, hash, size);
  setEntry(context, path, { hash, mtimeMs }, partial, () => snapshot);
}

function setEntry(
  context: ToolUseContext,
  path: string,
  seen: { hash: string; mtimeMs: number },
  partial: ReadFileEntry['partial'],
  snapshot: () => string | undefined,
): void {
  const entry: ReadFileEntry = { ...seen, readAt: Date.now() };
  if (partial) entry.partial = partial;
  // Only a whole view is a snapshot: a diff against part of a file would mislead.
  const text = partial ? undefined : snapshot();
  if (text !== undefined) entry.snapshot = text;
  context.readFileState.set(path, entry);
}
