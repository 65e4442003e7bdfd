/**
 * Crash-safe file replacement: the data goes to a temp file in the same folder, is flushed to
 * disk, then renamed over the target. A reader (or a crash) sees the old file or the new one,
 * never a half-written mix. A write that fails removes its temp file; one cut off by a kill is
 * removed by a later start (config/write-journal.ts).
 */
import { constants } from 'node:fs';
import { mkdir, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { recordTempFile, tempFileName } from './write-journal';

/** The steps of a write after the temp file's name is chosen, in order. */
export type AtomicWriteStep = 'open' | 'write' | 'sync' | 'rename';

export type AtomicWriteOptions = {
  /** Mode for a new file; an existing file keeps its own mode. */
  mode?: number;
  /**
   * Runs before each step. A throw fails the write at that step, as a full disk or a vanished
   * folder would: the way tests reach the failure paths (as root, file modes stop no write).
   */
  beforeStep?: (step: AtomicWriteStep, tempPath: string) => void | Promise<void>;
};

/** Writes `data` to `path` atomically, creating parent folders; returns the path written. */
export async function writeFileAtomic(
  path: string,
  data: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<string> {
  // Write through a symlink to its target: renaming over the link would replace it by a file.
  const target = await realpath(path).catch(() => path);
  const existingMode = await stat(target).then(
    (info) => info.mode & 0o7777,
    () => undefined,
  );
  const dir = dirname(target);
  await mkdir(dir, { recursive: true });
  // The name is shortened so a file whose name is near the 255-byte limit can still be replaced.
  const tempPath = join(dir, tempFileName(target));
  const mode = existingMode ?? options.mode ?? 0o666;
  const step = async (name: AtomicWriteStep) => options.beforeStep?.(name, tempPath);
  const forget = await recordTempFile(tempPath);
  let renamed = false;
  try {
    await step('open');
    const handle = await open(tempPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
    try {
      await step('write');
      await handle.writeFile(data);
      // The umask narrowed the open() mode; an existing file's exact mode must survive the swap.
      if (existingMode !== undefined) await handle.chmod(existingMode);
      await step('sync');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await step('rename');
    await rename(tempPath, target);
    renamed = true;
    await syncDirectory(dir);
  } finally {
    if (!renamed) await unlink(tempPath).catch(() => {});
    await forget();
  }
  return target;
}

// Makes the rename itself durable; not every platform allows opening a folder, so best effort.
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The data is already flushed; only the rename's durability is weaker here.
  }
}
