/**
 * Reading a file a repository (or the model) names, before anyone was asked: only a regular
 * file, and never more than a bound. A FIFO blocks an open until someone writes to it — a
 * planted `CLAUDE.md` or `.claude/settings.json` that is one hangs Yoke's start-up for good, the
 * blocked thread-pool read ignoring SIGTERM — and a device or a huge file fills memory. The open
 * itself never waits (O_NONBLOCK) and the type is judged on the opened descriptor, so a file
 * swapped for a FIFO between a check and the open is caught too.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';

/** The open flags: read-only, never waiting for a FIFO's writer, never taking a terminal. */
export const NONBLOCKING_READ = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** What a non-regular file is, in words; undefined for a regular file. */
export function describeSpecialFile(info: Stats): string | undefined {
  if (info.isFile()) return undefined;
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

/** A file that was not read, and why, in a clause that completes "… : not loaded, <reason>". */
export class UnreadableFileError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
    /** What the file is when it is no regular file ("a FIFO (named pipe)", "a directory"). */
    readonly kind?: string,
  ) {
    super(`${path} ${reason}`);
    this.name = 'UnreadableFileError';
  }
}

function notRegular(path: string, kind: string): UnreadableFileError {
  return new UnreadableFileError(path, `is ${kind}, not a regular file`, kind);
}

function tooLarge(path: string, size: string, maxBytes: number): UnreadableFileError {
  return new UnreadableFileError(path, `is ${size}, over the ${formatSize(maxBytes)} read at most`);
}

/**
 * How much to read next: the whole file and one byte more (which tells a file that grew) on the
 * first read, then 64 KB at a time (a `/proc` file reports size 0 and has more).
 */
function chunkSize(info: Stats, total: number): number {
  return total === 0 && info.size > 0 ? info.size + 1 : 64 * 1024;
}

function joined(chunks: Buffer[], total: number): Buffer {
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
}

/**
 * Opens `path` (symlinks followed, `extraFlags` added: O_NOFOLLOW for a confined read) without
 * waiting; throws UnreadableFileError when it is no regular file, the open's own error otherwise
 * (ENOENT for a missing file, as before).
 */
export function openRegularSync(path: string, extraFlags = 0): { fd: number; info: Stats } {
  const fd = openSync(path, NONBLOCKING_READ | extraFlags);
  try {
    const info = fstatSync(fd);
    const kind = describeSpecialFile(info);
    if (kind) throw notRegular(path, kind);
    return { fd, info };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * A regular file's bytes, at most `maxBytes` of them (a file beyond the bound, or one growing
 * past it while read, as `/proc` files that report size 0 may, is refused whole). Throws
 * UnreadableFileError for a special or oversized file, the open's error for a missing one.
 */
export function readRegularBytesSync(path: string, maxBytes: number): Buffer {
  const { fd, info } = openRegularSync(path);
  try {
    return readOpenedSync(fd, info, path, maxBytes);
  } finally {
    closeSync(fd);
  }
}

/** The bytes of a regular file already opened (by openRegularSync), under the same bound. */
export function readOpenedSync(fd: number, info: Stats, path: string, maxBytes: number): Buffer {
  if (info.size > maxBytes) throw tooLarge(path, formatSize(info.size), maxBytes);
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1 - total, chunkSize(info, total)));
    const read = readSync(fd, buffer, 0, buffer.length, total);
    if (read === 0) break;
    chunks.push(buffer.subarray(0, read));
    total += read;
    if (total > maxBytes) throw tooLarge(path, `over ${formatSize(maxBytes)}`, maxBytes);
  }
  return joined(chunks, total);
}

export function readRegularTextSync(path: string, maxBytes: number): string {
  return readRegularBytesSync(path, maxBytes).toString('utf8');
}

/** The asynchronous form of readRegularBytesSync, for reads on the way to the first request. */
export async function readRegularBytes(path: string, maxBytes: number): Promise<Buffer> {
  const handle: FileHandle = await open(path, NONBLOCKING_READ);
  try {
    const info = await handle.stat();
    const kind = describeSpecialFile(info);
    if (kind) throw notRegular(path, kind);
    if (info.size > maxBytes) throw tooLarge(path, formatSize(info.size), maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1 - total, chunkSize(info, total)));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, total);
      if (bytesRead === 0) break;
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw tooLarge(path, `over ${formatSize(maxBytes)}`, maxBytes);
    }
    return joined(chunks, total);
  } finally {
    await handle.close();
  }
}

/** A regular file's text (UTF-8), as readRegularBytes reads it. */
export async function readRegularText(path: string, maxBytes: number): Promise<string> {
  return (await readRegularBytes(path, maxBytes)).toString('utf8');
}
