/**
 * Opening files for the file tools: only regular files, and never more bytes than a bound.
 * A FIFO blocks an open until someone writes to it, `/dev/zero` never ends, a socket cannot be
 * read at all; a model (or a planted symlink) must not be able to hang a tool or fill memory
 * with them. The open itself does not block (O_NONBLOCK) and the type is checked on the opened
 * descriptor, so a file swapped for a FIFO between a check and the open is caught too.
 */
import type { Stats } from 'node:fs';
import { type FileHandle, open, realpath, stat } from 'node:fs/promises';
import { describeSpecialFile, formatSize, NONBLOCKING_READ } from '../../../lib/regular-file-text';
import { ToolError } from '../../tool';
import { describeFsError } from './fs-errors';

/**
 * Files up to this size are loaded whole: hashed for the read-before-write check, changed by
 * Edit, Write and NotebookEdit. Read pages through larger ones without loading them.
 */
export const MAX_WHOLE_FILE_BYTES = 64 * 1024 * 1024;

export { describeSpecialFile, formatSize };

export type FilePurpose = 'read' | 'change';

/** The one-line refusal for a special file, naming the symlink's target when there is one. */
export async function specialFileRefusal(path: string, kind: string, purpose: FilePurpose): Promise<string> {
  const target = await realpath(path).catch(() => path);
  const shown = target === path ? path : `${path} (a link to ${target})`;
  if (purpose === 'change') {
    return `${shown} is ${kind}, not a regular file; the file tools change regular files only.`;
  }
  return (
    `${shown} is ${kind}, not a regular file; the file tools read regular files only (a FIFO can wait forever, ` +
    'a device can stream without end). If you need a few bytes of it, use Bash with a bound, e.g. `head -c 256 FILE | xxd`.'
  );
}

/**
 * Opens `path` for reading if it is a regular file (symlinks followed); otherwise throws a
 * ToolError that says what it is. Directories are refused too: callers that word their own
 * directory message check for one before.
 */
export async function openRegularFile(
  path: string,
  purpose: FilePurpose,
): Promise<{ handle: FileHandle; info: Stats }> {
  let handle: FileHandle;
  try {
    handle = await open(path, NONBLOCKING_READ);
  } catch (error) {
    // A socket cannot be opened at all (ENXIO); say what it is rather than quote the errno.
    const info = await stat(path).catch(() => undefined);
    const kind = info && describeSpecialFile(info);
    if (kind) throw new ToolError(await specialFileRefusal(path, kind, purpose));
    throw new ToolError(describeFsError(error, path));
  }
  try {
    const info = await handle.stat();
    const kind = describeSpecialFile(info);
    if (kind) throw new ToolError(await specialFileRefusal(path, kind, purpose));
    return { handle, info };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

export type WholeFileOptions = {
  purpose: FilePurpose;
  signal?: AbortSignal;
  /** The largest size accepted (MAX_WHOLE_FILE_BYTES by default). */
  maxBytes?: number;
  /** The refusal for a larger file. */
  tooLarge: (sizeText: string) => string;
};

/**
 * Reads a regular file whole, refusing it when it is (or grows while being read) beyond the
 * bound, so memory stays bounded even for a file that `stat` reports as empty (as `/proc` does).
 */
export async function readWholeRegularFile(
  path: string,
  options: WholeFileOptions,
): Promise<{ bytes: Buffer; info: Stats }> {
  const maxBytes = options.maxBytes ?? MAX_WHOLE_FILE_BYTES;
  const { handle, info } = await openRegularFile(path, options.purpose);
  try {
    if (info.size > maxBytes) throw new ToolError(options.tooLarge(formatSize(info.size)));
    const chunks: Buffer[] = [];
    let total = 0;
    // One byte past the bound tells a file that grew from one that is exactly at it.
    let buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(info.size + 1, 64 * 1024)));
    for (;;) {
      options.signal?.throwIfAborted();
      const { bytesRead } = await handle.read(
        buffer,
        0,
        Math.min(buffer.length, maxBytes + 1 - total),
        total,
      );
      if (bytesRead === 0) break;
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw new ToolError(options.tooLarge(`over ${formatSize(maxBytes)}`));
      buffer = buffer.subarray(bytesRead);
      if (buffer.length === 0) buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1 - total, 1024 * 1024));
    }
    return { bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total), info };
  } catch (error) {
    if (error instanceof ToolError || (error as Error).name === 'AbortError') throw error;
    throw new ToolError(describeFsError(error, path));
  } finally {
    await handle.close();
  }
}
