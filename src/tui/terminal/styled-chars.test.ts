import { styledCharsFromTokens, tokenize } from '@alcalzone/ansi-tokenize';
import { describe, expect, it } from 'vitest';
import { ROW_PIECES, SAMPLE_ROWS, seededRow } from './sample-rows';
import { styledChars } from './styled-chars';

// Rows with styles turned on and off, over one another and reset.
const STYLED_ROWS = [
  '\x1b[1m\x1b[1mdouble bold\x1b[22m\x1b[2mdim\x1b[22m',
  '\x1b[31m\x1b[32mgreen wins\x1b[39m',
  '\x1b[48;2;10;20;30mtruecolor\x1b[0m after reset',
  '\x1b[4munderlined \x1b[7minverse\x1b[27m\x1b[24m\x1b[0m',
];
const ROWS = [...SAMPLE_ROWS, ...STYLED_ROWS];
const SGR = [
  '\x1b[1m',
  '\x1b[22m',
  '\x1b[31m',
  '\x1b[39m',
  '\x1b[0m',
  '\x1b[2m',
  '\x1b[44m',
  '\x1b[49m',
  '\x1b[3m',
  '\x1b[23m',
];
const randomRow = (seed: number) => seededRow(seed, [...ROW_PIECES, ...SGR, ...SGR], 30);

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
