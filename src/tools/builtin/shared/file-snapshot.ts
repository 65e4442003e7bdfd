/**
 * Snapshots of small text files as the model saw them, kept in readFileState so that a change
 * someone else makes to such a file can be shown to the model as a diff (the engine's
 * changed-files notice) instead of only "it changed, read it again".
 */
import { readFile } from 'node:fs/promises';
import { hasNonTextExtension, looksBinary } from './binary';
import { hashContent } from './hash';
import { decodeText } from './text-format';

/** Larger files are not kept: their changes are reported without a diff. */
export const SNAPSHOT_MAX_BYTES = 32 * 1024;

/** The text of a whole file's bytes, or undefined when the file is too large or not text. */
export function snapshotOf(path: string, bytes: Uint8Array): string | undefined {
  if (bytes.length > SNAPSHOT_MAX_BYTES) return undefined;
  if (hasNonTextExtension(path)) return undefined;
  const { text, format } = decodeText(bytes);
  const utf16 = format.encoding === 'utf16le' || format.encoding === 'utf16be';
  if (!utf16 && looksBinary(bytes)) return undefined;
  return text;
}

/**
 * The snapshot of a file whose hash the caller computed while streaming it: read again only when
 * small, and kept only when the bytes still have that hash (the file did not change in between).
 */
export async function readSnapshot(path: string, hash: string, size: number): Promise<string | undefined> {
  if (size > SNAPSHOT_MAX_BYTES) return undefined;
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch {
    return undefined;
  }
  return hashContent(bytes) === hash ? snapshotOf(path, bytes) : undefined;
}
