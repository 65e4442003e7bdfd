/**
 * How a text file is stored on disk, so tools can read it as a JS string and write it back the
 * same way: bytes an edit did not touch come back exactly as they were. UTF-8 (with or without
 * a BOM) and UTF-16 with a BOM are decoded as such; any other file that is not valid UTF-8 is
 * taken byte for byte as Latin-1, which maps every byte to one character and back. Line endings
 * (LF, CRLF, CR) are kept too: the model writes `\n` and the file's own break is put back.
 */
import { isUtf8 } from 'node:buffer';

export type TextEncodingKind = 'utf8' | 'utf8-bom' | 'utf16le' | 'utf16be' | 'latin1';
export type LineEnding = 'LF' | 'CRLF' | 'CR';
export type TextFormat = { encoding: TextEncodingKind; lineEnding: LineEnding };

export const DEFAULT_TEXT_FORMAT: TextFormat = { encoding: 'utf8', lineEnding: 'LF' };

const BOMS = {
  'utf8-bom': [0xef, 0xbb, 0xbf],
  utf16le: [0xff, 0xfe],
  utf16be: [0xfe, 0xff],
} as const;

export function bomLength(encoding: TextEncodingKind): number {
  return encoding === 'utf8-bom' || encoding === 'utf16le' || encoding === 'utf16be'
    ? BOMS[encoding].length
    : 0;
}

/**
 * The encoding a byte-order mark announces, from the first bytes of a file of `size` bytes.
 * A "UTF-16" file of odd length cannot be UTF-16, so it is not taken for one.
 */
export function detectBom(head: Uint8Array, size: number): 'utf8-bom' | 'utf16le' | 'utf16be' | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf8-bom';
  if (size % 2 === 0 && head[0] === 0xff && head[1] === 0xfe) return 'utf16le';
  if (size % 2 === 0 && head[0] === 0xfe && head[1] === 0xff) return 'utf16be';
  return undefined;
}

export function detectEncoding(bytes: Uint8Array): TextEncodingKind {
  const bom = detectBom(bytes, bytes.length);
  if (bom === 'utf16le' || bom === 'utf16be') return bom;
  if (bom === 'utf8-bom') return isUtf8(bytes.subarray(3)) ? 'utf8-bom' : 'latin1';
  return isUtf8(bytes) ? 'utf8' : 'latin1';
}

/** The style of the first line break decides; a file without one counts as LF. */
export function detectLineEnding(text: string): LineEnding {
  const at = text.search(/[\r\n]/);
  if (at < 0 || text[at] === '\n') return 'LF';
  return text[at + 1] === '\n' ? 'CRLF' : 'CR';
}

/** Decodes UTF-16 code units as they are (an unpaired surrogate survives a round trip). */
export function decodeUtf16(bytes: Uint8Array, bigEndian: boolean): string {
  const buffer = Buffer.from(bytes);
  if (bigEndian) buffer.swap16();
  return buffer.toString('utf16le');
}

/** Decodes bytes to text without the BOM, and reports the format to write it back with. */
export function decodeText(bytes: Uint8Array): { text: string; format: TextFormat } {
  const encoding = detectEncoding(bytes);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const body = buffer.subarray(bomLength(encoding));
  let text: string;
  if (encoding === 'utf16le' || encoding === 'utf16be') text = decodeUtf16(body, encoding === 'utf16be');
  else text = body.toString(encoding === 'latin1' ? 'latin1' : 'utf8');
  return { text, format: { encoding, lineEnding: detectLineEnding(text) } };
}

/** A character of `text` that `encoding` cannot store, if there is one. */
export type Unrepresentable = { char: string; codePoint: number; line: number };

export function findUnrepresentable(text: string, encoding: TextEncodingKind): Unrepresentable | undefined {
  let at = -1;
  if (encoding === 'latin1') at = text.search(/[^\u0000-\u00ff]/);
  // UTF-8 cannot store half of a surrogate pair (UTF-16 stores any code unit as it is).
  else if (encoding === 'utf8' || encoding === 'utf8-bom') at = text.search(LONE_SURROGATE);
  if (at < 0) return undefined;
  const codePoint = text.codePointAt(at)!;
  const line = text.slice(0, at).split(/\r\n|\r|\n/).length;
  return { char: String.fromCodePoint(codePoint), codePoint, line };
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The text with each half of a surrogate pair that stands alone shown as U+FFFD (for display). */
export function wellFormed(text: string): string {
  return LONE_SURROGATE.test(text) ? text.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\ufffd') : text;
}

export function describeEncoding(encoding: TextEncodingKind): string {
  switch (encoding) {
    case 'utf8':
      return 'UTF-8';
    case 'utf8-bom':
      return 'UTF-8 with a BOM';
    case 'utf16le':
      return 'UTF-16 LE';
    case 'utf16be':
      return 'UTF-16 BE';
    case 'latin1':
      return 'Latin-1 (it is not valid UTF-8, so each byte is one character)';
  }
}

/** UTF-8 read as Latin-1 shows as pairs like "Ã©": a UTF-8 file with a few stray bytes. */
function looksLikeMisreadUtf8(text: string): boolean {
  return /[\u00c2-\u00f4][\u0080-\u00bf]/.test(text);
}

/**
 * The refusal for text the file's encoding cannot hold; nothing is written in that case.
 * `text` is the file's text, to tell a Latin-1 file from a UTF-8 one spoilt by a stray byte.
 */
export function unrepresentableMessage(
  path: string,
  encoding: TextEncodingKind,
  found: Unrepresentable,
  text: string,
): string {
  const hex = found.codePoint.toString(16).toUpperCase().padStart(4, '0');
  const shown =
    found.codePoint >= 0xd800 && found.codePoint <= 0xdfff ? 'half of a surrogate pair' : `"${found.char}"`;
  let fix =
    'Send the character whole (both halves of the pair); the text was probably cut inside an emoji or similar.';
  if (encoding === 'latin1') {
    fix = looksLikeMisreadUtf8(text)
      ? 'Most of the file looks like UTF-8 with a few bytes that are not: find them with Bash ' +
        "(`LC_ALL=C.UTF-8 grep -naxv '.*' FILE` lists their lines), fix them, Read the file again and retry."
      : 'Use only characters from Latin-1 (U+0000-U+00FF), e.g. an ASCII spelling or an escape the file format knows, ' +
        'or convert the file to UTF-8 first with Bash (`iconv -f latin1 -t utf-8 FILE > FILE.new && mv FILE.new FILE`), Read it again and retry.';
  }
  return `${path} is stored as ${describeEncoding(encoding)}, which cannot hold ${shown} (U+${hex}, in line ${found.line} of the new text). Nothing was written. ${fix}`;
}

/**
 * Encodes text in the given encoding (BOM included); line endings are left as they are. The
 * caller checks `findUnrepresentable` first: Latin-1 would silently truncate other characters.
 */
export function encodeText(text: string, encoding: TextEncodingKind): Buffer {
  switch (encoding) {
    case 'utf8':
      return Buffer.from(text, 'utf8');
    case 'latin1':
      return Buffer.from(text, 'latin1');
    case 'utf8-bom':
      return Buffer.concat([Buffer.from(BOMS['utf8-bom']), Buffer.from(text, 'utf8')]);
    case 'utf16le':
      return Buffer.concat([Buffer.from(BOMS.utf16le), Buffer.from(text, 'utf16le')]);
    case 'utf16be':
      return Buffer.concat([Buffer.from(BOMS.utf16be), Buffer.from(text, 'utf16le').swap16()]);
  }
}

/** Rewrites every line break to the given style (the model always writes `\n`). */
export function withLineEnding(text: string, lineEnding: LineEnding): string {
  if (lineEnding === 'CRLF') return text.replace(/\r?\n/g, '\r\n');
  if (lineEnding === 'CR') return text.replace(/\r?\n/g, '\r');
  return text;
}

/** The text with CRLF turned into LF, for display and diffs. */
export function toLf(text: string): string {
  return text.replace(/\r\n/g, '\n');
}
