/**
 * Test fixtures: files in every encoding and line-ending style the file tools must give back
 * byte for byte, written as raw bytes so no editor or decoder stands between the test and disk.
 */
/** Bytes from byte lists and strings taken one byte per character (so 'é' is 0xE9). */
export const bytes = (...parts: Array<number[] | string>) =>
  Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))),
  );
const utf16le = (text: string) => Buffer.from(text, 'utf16le');
const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();

/** Every kind of file the tools must give back byte for byte. */
export const ENCODING_FIXTURES = {
  lf: { bytes: Buffer.from('a\nb\n'), encoding: 'utf8', lineEnding: 'LF' },
  crlf: { bytes: Buffer.from('a\r\nb\r\n'), encoding: 'utf8', lineEnding: 'CRLF' },
  crOnly: { bytes: Buffer.from('a\rb\rc'), encoding: 'utf8', lineEnding: 'CR' },
  mixed: { bytes: Buffer.from('a\r\nb\nc\rd\n'), encoding: 'utf8', lineEnding: 'CRLF' },
  utf8Bom: {
    bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('é\r\n')]),
    encoding: 'utf8-bom',
    lineEnding: 'CRLF',
  },
  // é, ß and ÿ as single bytes: not valid UTF-8, so Latin-1.
  latin1: {
    bytes: bytes('caf', [0xe9], ' Stra', [0xdf, 0x65], ' ', [0xff, 0x0a], 'x\n'),
    encoding: 'latin1',
    lineEnding: 'LF',
  },
  latin1Crlf: { bytes: bytes([0x93], 'quoted', [0x94, 0x0d, 0x0a]), encoding: 'latin1', lineEnding: 'CRLF' },
  utf16le: {
    bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), utf16le('grüß\r\n€ 😀\n')]),
    encoding: 'utf16le',
    lineEnding: 'CRLF',
  },
  utf16be: {
    bytes: Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be('grüß\n€ 😀\n')]),
    encoding: 'utf16be',
    lineEnding: 'LF',
  },
  // An unpaired surrogate is kept as it is in UTF-16.
  utf16Lone: {
    bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from([0x00, 0xd8, 0x41, 0x00])]),
    encoding: 'utf16le',
    lineEnding: 'LF',
  },
  // "UTF-16" of odd length is not UTF-16: its bytes are kept as Latin-1.
  oddUtf16: { bytes: Buffer.from([0xff, 0xfe, 0x41]), encoding: 'latin1', lineEnding: 'LF' },
  // A BOM followed by bytes that are not UTF-8: Latin-1 for the whole file, BOM bytes included.
  bomLatin1: { bytes: bytes([0xef, 0xbb, 0xbf], 'caf', [0xe9]), encoding: 'latin1', lineEnding: 'LF' },
} as const;
