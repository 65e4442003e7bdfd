/**
 * Writes several files as one change: each atomically (config/atomic-write.ts), and when one
 * fails, the ones already written get their old bytes back, so the tree holds the old form or the
 * new one, never a mix. Only a restore that fails too is reported by name.
 */
import { type AtomicWriteOptions, writeFileAtomic } from '../../../config/atomic-write';
import { ToolError } from '../../tool';
import { describeFsError } from './fs-errors';

export type FileChange = { path: string; before: Uint8Array; after: Uint8Array };

/** `options` reaches each write (tests fail one with `beforeStep`, as a full disk would). */
export async function writeAllOrNone(
  changes: readonly FileChange[],
  options: AtomicWriteOptions = {},
): Promise<void> {
  const written: FileChange[] = [];
  for (const change of changes) {
    try {
      await writeFileAtomic(change.path, change.after, options);
      written.push(change);
    } catch (error) {
      const restored = await Promise.all(
        written.map((w) =>
          writeFileAtomic(w.path, w.before).then(
            () => true,
            () => false,
          ),
        ),
      );
      const lost = written.filter((_, i) => !restored[i]).map((w) => w.path);
      const tail = lost.length > 0 ? ` Could not restore: ${lost.join(', ')}.` : ' No file was changed.';
      throw new ToolError(`${describeFsError(error, change.path)}${tail}`);
    }
  }
}
