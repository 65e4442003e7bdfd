/**
 * Reads a page of a text file by streaming it in chunks: only the page's lines are kept, so a
 * 200 MB log or a one-line 100 MB bundle costs a chunk and a page of memory, not the file.
 *
 * A file up to MAX_WHOLE_FILE_BYTES is streamed to its end: its lines are counted, its bytes
 * hashed (for the edit tools' read-before-write check), and its encoding decided on every byte
 * exactly as the edit tools decide it, so what the model reads is what Edit will match. A larger
 * file is read only up to the end of the page (the edit tools do not change such files).
 */
import type { FileHandle } from 'node:fs/promises';
import { looksBinary } from '../shared/binary';
import { createContentHasher } from '../shared/hash';
import { MAX_WHOLE_FILE_BYTES } from '../shared/regular-file';
import {
  bomLength,
  decodeUtf16,
  detectBom,
  type TextEncodingKind,
  type TextFormat,
} from '../shared/text-format';
import { LineWindow, type WindowSpec } from './line-window';
import type { TextView } from './text-view';

const CHUNK_BYTES = 256 * 1024;
const SNIFF_BYTES = 8192;

export type TextScan =
  | { kind: 'binary' }
  /** `hash` is set when the whole file was read (and so may be edited). */
  | { kind: 'text'; view: TextView; format: TextFormat; hash: string | undefined };

export async function scanTextFile(
  handle: FileHandle,
  size: number,
  spec: WindowSpec,
  signal: AbortSignal,
): Promise<TextScan> {
  const head = Buffer.alloc(SNIFF_BYTES);
  const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
  const sniffed = head.subarray(0, bytesRead);
  const bom = detectBom(sniffed, size);
  const utf16 = bom === 'utf16le' || bom === 'utf16be';
  if (!utf16 && looksBinary(sniffed)) return { kind: 'binary' };
  try {
    return await scan(handle, size, spec, signal, bom ?? 'utf8');
  } catch (error) {
    // Not valid UTF-8 after all: the file is Latin-1, one character per byte, as Edit sees it.
    if (error instanceof NotUtf8) return scan(handle, size, spec, signal, 'latin1');
    throw error;
  }
}

class NotUtf8 extends Error {}

type ChunkDecoder = { write(bytes: Buffer): string; end(): string };

function chunkDecoder(encoding: TextEncodingKind): ChunkDecoder {
  if (encoding === 'latin1') return { write: (bytes) => bytes.toString('latin1'), end: () => '' };
  if (encoding === 'utf16le' || encoding === 'utf16be') {
    // A chunk may end inside a code unit; its first byte waits for the next chunk.
    let odd: Buffer | undefined;
    return {
      write(bytes) {
        const all = odd ? Buffer.concat([odd, bytes]) : bytes;
        const even = all.length - (all.length % 2);
        odd = even < all.length ? Buffer.from(all.subarray(even)) : undefined;
        return decodeUtf16(all.subarray(0, even), encoding === 'utf16be');
      },
      end: () => (odd ? '\ufffd' : ''),
    };
  }
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const checked = (decode: () => string) => {
    try {
      return decode();
    } catch {
      throw new NotUtf8();
    }
  };
  return {
    write: (bytes) => checked(() => decoder.decode(bytes, { stream: true })),
    end: () => checked(() => decoder.decode()),
  };
}

async function scan(
  handle: FileHandle,
  size: number,
  spec: WindowSpec,
  signal: AbortSignal,
  encoding: TextEncodingKind,
): Promise<TextScan> {
  const window = new LineWindow(spec);
  const decoder = chunkDecoder(encoding);
  // `stat` says 0 for files like those in /proc: they are read to their end, within the bound.
  let hasher = size <= MAX_WHOLE_FILE_BYTES ? createContentHasher() : undefined;
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let position = 0;
  let skip = bomLength(encoding);
  let reachedEnd = false;
  for (;;) {
    signal.throwIfAborted();
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) {
      reachedEnd = true;
      break;
    }
    const chunk = buffer.subarray(0, bytesRead);
    position += bytesRead;
    hasher?.update(chunk);
    // A file that grows past the bound while being read is treated like one that was larger.
    if (position > MAX_WHOLE_FILE_BYTES) hasher = undefined;
    window.push(decoder.write(skip > 0 ? chunk.subarray(skip) : chunk));
    skip = 0;
    if (window.pageDone && !hasher) break;
  }
  if (reachedEnd) {
    window.push(decoder.end());
    window.finish();
  }
  const startLine = Math.max(1, spec.startLine);
  const view: TextView = {
    content: window.lines.join('\n'),
    numbered: window.lines.map((line, i) => `${startLine + i}\t${line}`).join('\n'),
    startLine,
    numLines: window.lines.length,
    totalLines: window.lineCount,
    counted: reachedEnd,
    fileSize: Math.max(size, position),
    truncatedByTokenCap: window.truncatedByTokenCap,
    cutLongLines: window.cutLongLines,
  };
  return {
    kind: 'text',
    view,
    format: { encoding, lineEnding: window.lineEnding ?? 'LF' },
    hash: reachedEnd && hasher ? hasher.digest('hex') : undefined,
  };
}
