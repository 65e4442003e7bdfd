/**
 * How a text file is stored on disk, so tools can read it as a JS string and write it back the
 * same way: a Windows file stays CRLF, a BOM survives an edit, UTF-16 stays UTF-16.
 */

export type TextEncodingKind = 'utf8' | 'utf8-bom' | 'utf16le';
export type LineEnding = 'LF' | 'CRLF';
export type TextFormat = { encoding: TextEncodingKind; lineEnding: LineEnding };

export const DEFAULT_TEXT_FORMAT: TextFormat = { encoding: 'utf8', lineEnding: 'LF' };

export function detectEncoding(bytes: Uint8Array): TextEncodingKind {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf8-bom';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf16le';
  return 'utf8';
}

/** The style of the first line break decides; a file without one counts as LF. */
export function detectLineEnding(text: string): LineEnding {
  const newline = text.indexOf('\n');
  return newline > 0 && text[newline - 1] === '\r' ? 'CRLF' : 'LF';
}

/** Decodes bytes to text without the BOM, and reports the format to write it back with. */
export function decodeText(bytes: Uint8Array): { text: string; format: TextFormat } {
  const encoding = detectEncoding(bytes);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let text: string;
  if (encoding === 'utf8-bom') text = buffer.subarray(3).toString('utf8');
  else if (encoding === 'utf16le') text = buffer.subarray(2).toString('utf16le');
  else text = buffer.toString('utf8');
  return { text, format: { encoding, lineEnding: detectLineEnding(text) } };
}

/** Encodes text in the given encoding (BOM included); line endings are left as they are. */
export function encodeText(text: string, encoding: TextEncodingKind): Buffer {
  if (encoding === 'utf8-bom') return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
  if (encoding === 'utf16le') return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  return Buffer.from(text, 'utf8');
}

/** Rewrites every line break to the given style (the model always writes `\n`). */
export function withLineEnding(text: string, lineEnding: LineEnding): string {
  return lineEnding === 'CRLF' ? text.replace(/\r?\n/g, '\r\n') : text;
}

/** The text with CRLF turned into LF, for display and diffs. */
export function toLf(text: string): string {
  return text.replace(/\r\n/g, '\n');
}
