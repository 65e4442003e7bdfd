/**
 * The first part of a text file, decoded as Read decodes it, for showing a file the model read
 * earlier again (after a compaction). Bounded and safe like Read: only a regular file is opened,
 * only `maxBytes` are read, and a file that is not text (binary, an image, a PDF) gives nothing.
 */
import { hasNonTextExtension, looksBinary } from './binary';
import { openRegularFile } from './regular-file';
import { decodeText, detectBom } from './text-format';

/** Text of the file's head and whether the file goes on; undefined when it is not a readable text file. */
export async function readTextHead(
  path: string,
  maxBytes: number,
): Promise<{ text: string; truncated: boolean } | undefined> {
  if (hasNonTextExtension(path)) return undefined;
  let opened: Awaited<ReturnType<typeof openRegularFile>>;
  try {
    opened = await openRegularFile(path, 'read');
  } catch {
    return undefined;
  }
  const { handle, info } = opened;
  try {
    // One byte more than asked tells whether the file goes on.
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.length) break;
    }
    const truncated = length > maxBytes;
    let head = buffer.subarray(0, Math.min(length, maxBytes));
    const bom = detectBom(head, info.size);
    const utf16 = bom === 'utf16le' || bom === 'utf16be';
    if (!utf16 && looksBinary(head)) return undefined;
    // A cut through a character must not change how the head decodes (UTF-8 would turn Latin-1).
    if (truncated)
      head = head.subarray(0, utf16 ? head.length - (head.length % 2) : completeUtf8Length(head));
    return { text: decodeText(head).text, truncated };
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** The length of `bytes` without a UTF-8 sequence cut off at its end. */
function completeUtf8Length(bytes: Uint8Array): number {
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}
