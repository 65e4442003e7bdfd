import {
  styledCharsToString as original,
  type StyledChar,
  styledCharsFromTokens,
  tokenize,
} from '@alcalzone/ansi-tokenize';
import { describe, expect, it } from 'vitest';
import { styledCharsToString } from './styled-row';

const cells = (text: string): StyledChar[] => styledCharsFromTokens(tokenize(text));
const BLANK: StyledChar = { type: 'char', value: ' ', fullWidth: false, styles: [] };

// Rows as Ink's output has them: tokenized lines with styles that open, change, nest and close,
// padded with the shared blank cell.
const ROWS: Record<string, StyledChar[]> = {
  empty: [],
  plain: cells('just text'),
  blanks: [BLANK, BLANK, BLANK],
  'styled then blanks': [...cells('\x1b[1mbold\x1b[22m'), BLANK, BLANK],
  'open at the end': cells('\x1b[31mred to the end'),
  'colour change': cells('\x1b[31mred\x1b[32mgreen\x1b[39m plain'),
  'bold and dim together': cells('\x1b[1mb\x1b[2mbd\x1b[22mn\x1b[2md'),
  nested: cells('\x1b[1m\x1b[4mbu\x1b[24mb\x1b[22m \x1b[7minv\x1b[27m'),
  '256 and true colour': cells('\x1b[38;5;208mo\x1b[48;2;10;20;30mob\x1b[0m.'),
  'wide characters': cells('\x1b[36m漢字\x1b[39m🙂 x'),
  'a link': cells('\x1b]8;;https://example.com\x07link\x1b]8;;\x07 after'),
  'style on blank cells': [...cells('\x1b[44m  '), BLANK, ...cells('\x1b[44m \x1b[49m')],
};

describe('styledCharsToString', () => {
  it.each(Object.entries(ROWS))('writes a row exactly as the library does: %s', (_name, row) => {
    expect(styledCharsToString(row)).toBe(original(row));
  });

  it('writes every pair of those rows joined as the library does (a style carried across)', () => {
    for (const a of Object.values(ROWS))
      for (const b of Object.values(ROWS))
        expect(styledCharsToString([...a, ...b])).toBe(original([...a, ...b]));
  });
});
