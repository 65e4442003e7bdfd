import { describe, expect, it } from 'vitest';
import { ToolError } from '../../tool';
import { ENCODING_FIXTURES } from './encoding-fixtures';
import { fromStoredText, toStoredText } from './stored-text';
import { decodeText, encodeText, findUnrepresentable, withLineEnding } from './text-format';

describe('text format', () => {
  it('detects each encoding and line ending and encodes back byte for byte', () => {
    for (const [name, fixture] of Object.entries(ENCODING_FIXTURES)) {
      const { text, format } = decodeText(fixture.bytes);
      expect({ name, ...format }).toEqual({
        name,
        encoding: fixture.encoding,
        lineEnding: fixture.lineEnding,
      });
      expect(text.charCodeAt(0) === 0xfeff && fixture.encoding !== 'latin1').toBe(false);
      expect(encodeText(text, format.encoding).equals(fixture.bytes), name).toBe(true);
      const stored = fromStoredText(fixture.bytes);
      expect(toStoredText(stored.text, stored, 'f').equals(fixture.bytes), name).toBe(true);
    }
  });

  it('shows Latin-1 bytes as the characters they stand for', () => {
    expect(decodeText(ENCODING_FIXTURES.latin1.bytes).text).toBe('café Straße ÿ\nx\n');
  });

  it('works on a CR-only file with \\n and puts the CRs back', () => {
    const stored = fromStoredText(ENCODING_FIXTURES.crOnly.bytes);
    expect(stored).toMatchObject({ text: 'a\nb\nc', crShownAsLf: true, editLineEnding: 'LF' });
    expect(toStoredText('a\nB\nc\nd', stored, 'f').toString()).toBe('a\rB\rc\rd');
  });

  it('finds the first character an encoding cannot hold', () => {
    expect(findUnrepresentable('café ÿ', 'latin1')).toBeUndefined();
    expect(findUnrepresentable('ok\nprice: 5 €', 'latin1')).toEqual({
      char: '€',
      codePoint: 0x20ac,
      line: 2,
    });
    expect(findUnrepresentable('😀', 'latin1')?.codePoint).toBe(0x1f600);
    expect(findUnrepresentable('😀 €', 'utf8')).toBeUndefined();
    expect(findUnrepresentable('a\ud800b', 'utf8-bom')?.codePoint).toBe(0xd800);
    expect(findUnrepresentable('a\udc00', 'utf8')?.codePoint).toBe(0xdc00);
    expect(findUnrepresentable('a\ud800b', 'utf16le')).toBeUndefined();
  });

  it('refuses to store what the encoding cannot hold, naming the character and the way out', () => {
    const stored = fromStoredText(ENCODING_FIXTURES.latin1.bytes);
    let error: unknown;
    try {
      toStoredText(`${stored.text}5 €\n`, stored, '/p/old.txt');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ToolError);
    expect((error as Error).message).toBe(
      '/p/old.txt is stored as Latin-1 (it is not valid UTF-8, so each byte is one character), which cannot hold "€" (U+20AC, in line 3 of the new text). ' +
        'Nothing was written. Use only characters from Latin-1 (U+0000-U+00FF), e.g. an ASCII spelling or an escape the file format knows, ' +
        'or convert the file to UTF-8 first with Bash (`iconv -f latin1 -t utf-8 FILE > FILE.new && mv FILE.new FILE`), Read it again and retry.',
    );
  });

  it('tells a UTF-8 file spoilt by a stray byte from a Latin-1 one, and says how to find the byte', () => {
    const stored = fromStoredText(Buffer.from([...Buffer.from('café naïve '), 0xe9, 0x0a]));
    expect(stored.format.encoding).toBe('latin1');
    expect(() => toStoredText(`${stored.text}€`, stored, 'f')).toThrow(
      "Most of the file looks like UTF-8 with a few bytes that are not: find them with Bash (`LC_ALL=C.UTF-8 grep -naxv '.*' FILE` lists their lines)",
    );
  });

  it('converts line endings without doubling existing CRs', () => {
    expect(withLineEnding('a\nb\r\nc', 'CRLF')).toBe('a\r\nb\r\nc');
    expect(withLineEnding('a\nb\r\nc', 'CR')).toBe('a\rb\rc');
    expect(withLineEnding('a\nb', 'LF')).toBe('a\nb');
  });
});
