import { styledCharsFromTokens, tokenize } from '@alcalzone/ansi-tokenize';
import { describe, expect, it } from 'vitest';
import { styledChars } from './styled-chars';

const ROWS = [
  '',
  'plain ascii row',
  '\x1b[1mbold\x1b[22m and \x1b[38;5;208morange\x1b[39m',
  '\x1b[48;2;10;20;30mtruecolor\x1b[0m after reset',
  '\x1b[1m\x1b[1mdouble bold\x1b[22m\x1b[2mdim\x1b[22m',
  '\x1b[31m\x1b[32mgreen wins\x1b[39m',
  '\x1b]8;;https://example.com\x07link\x1b]8;;\x07',
  '╭──────╮ │ > │ ╰──────╯ ⠋ Thinking… · default mode · $0.0000',
  '界 漢字 wide 🙂 👨‍👩‍👧 e\u0301',
  '\x1b[4munderlined \x1b[7minverse\x1b[27m\x1b[24m\x1b[0m',
];

/** Rows of random text, SGR codes and resets, from a seeded generator. */
function randomRow(seed: number): string {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state;
  };
  const pieces = [
    'a',
    'Z',
    ' ',
    '界',
    '🙂',
    '─',
    '\x1b[1m',
    '\x1b[22m',
    '\x1b[31m',
    '\x1b[39m',
    '\x1b[0m',
    '\x1b[2m',
    '\x1b[44m',
    '\x1b[49m',
    '\x1b[38;2;1;2;3m',
    '\x1b[3m',
    '\x1b[23m',
  ];
  let row = '';
  const length = next() % 40;
  for (let i = 0; i < length; i++) row += pieces[next() % pieces.length];
  return row;
}

describe('styledChars', () => {
  it.each(ROWS)('gives %j the characters and styles the package gives', (row) => {
    expect(styledChars(tokenize(row))).toEqual(styledCharsFromTokens(tokenize(row)));
  });

  it('agrees with the package on random rows', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const row = randomRow(seed);
      expect(styledChars(tokenize(row)), JSON.stringify(row)).toEqual(styledCharsFromTokens(tokenize(row)));
    }
  });

  it('shares one style list among the characters of a run', () => {
    const chars = styledChars(tokenize('\x1b[1mab\x1b[22mcd'));
    expect(chars[0]?.styles).toBe(chars[1]?.styles);
    expect(chars[2]?.styles).toBe(chars[3]?.styles);
    expect(chars[1]?.styles).not.toBe(chars[2]?.styles);
  });
});
