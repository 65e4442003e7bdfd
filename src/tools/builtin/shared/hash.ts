import { createHash, type Hash } from 'node:crypto';

/** sha256 hex of a file's bytes: what readFileState compares to detect outside changes. */
export function hashContent(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The same hash fed chunk by chunk, for a file that is streamed rather than loaded. */
export function createContentHasher(): Hash {
  return createHash('sha256');
}
