import { describe, expect, it } from 'vitest';
import { decodeText, encodeText, withLineEnding } from './text-format';

describe('text format', () => {
  it('detects LF, CRLF, a UTF-8 BOM and UTF-16LE, and encodes back byte for byte', () => {
    const samples = [
      Buffer.from('a\nb\n'),
      Buffer.from('a\r\nb\r\n'),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('é\r\n')]),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('ü\nx', 'utf16le')]),
    ];
    const formats = samples.map((bytes) => decodeText(bytes).format);
    expect(formats).toEqual([
      { encoding: 'utf8', lineEnding: 'LF' },
      { encoding: 'utf8', lineEnding: 'CRLF' },
      { encoding: 'utf8-bom', lineEnding: 'CRLF' },
      { encoding: 'utf16le', lineEnding: 'LF' },
    ]);
    for (const bytes of samples) {
      const { text, format } = decodeText(bytes);
      expect(text.charCodeAt(0)).not.toBe(0xfeff);
      expect(encodeText(text, format.encoding).equals(bytes)).toBe(true);
    }
  });

  it('converts line endings without doubling existing CRs', () => {
    expect(withLineEnding('a\nb\r\nc', 'CRLF')).toBe('a\r\nb\r\nc');
    expect(withLineEnding('a\nb', 'LF')).toBe('a\nb');
  });
});
