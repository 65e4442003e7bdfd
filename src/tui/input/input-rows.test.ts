import { describe, expect, it } from 'vitest';
import { boundaryAtOrBefore } from './graphemes';
import { cursorRow, inputRows, moveRow, windowTop } from './input-rows';

const texts = (text: string, width: number) => inputRows(text, width).map((r) => text.slice(r.start, r.end));

/** Up or Down as the input line does it: by rows, never into the middle of a character. */
const move = (text: string, cursor: number, direction: -1 | 1, width = 40) => {
  const to = moveRow(inputRows(text, width), cursor, direction);
  return to === undefined ? undefined : boundaryAtOrBefore(text, to);
};

describe('inputRows', () => {
  it('wraps words into rows, a space that fills a row hanging at its end, and keeps every character', () => {
    expect(texts('aaaa bbbbb cc', 9)).toEqual(['aaaa ', 'bbbbb cc']);
    expect(texts('aaaa bbbb cccc', 9)).toEqual(['aaaa bbbb ', 'cccc']);
    // The space after a full row stays on it (in the cursor's column), not at the next row's start.
    expect(texts('aaaaaaaaa bbb', 9)).toEqual(['aaaaaaaaa ', 'bbb']);
    expect(texts('abcdefghijkl', 5)).toEqual(['abcde', 'fghij', 'kl']);
    expect(texts('one\n\ntwo', 9)).toEqual(['one', '', 'two']);
    expect(texts('中文中文中', 4)).toEqual(['中文', '中文', '中']);
    const long = 'lorem ipsum '.repeat(900);
    expect(texts(long, 74).join('')).toBe(long);
  });

  it('puts the cursor at a row end in the next row, unless that row ends the line', () => {
    const rows = inputRows('abcde fgh\nxy', 6);
    expect(rows.map((r) => [r.start, r.end])).toEqual([
      [0, 6],
      [6, 9],
      [10, 12],
    ]);
    expect(cursorRow(rows, 5)).toBe(0);
    expect(cursorRow(rows, 6)).toBe(1);
    expect(cursorRow(rows, 9)).toBe(1);
    expect(cursorRow(rows, 10)).toBe(2);
    expect(cursorRow(rows, 12)).toBe(2);
  });
});

describe('moving by rows', () => {
  it('moves between lines keeping the column, and says when there is no row that way', () => {
    const text = 'first line\nsecond';
    expect(move(text, 15, -1)).toBe(4);
    expect(move(text, 15, 1)).toBeUndefined();
    expect(move(text, 2, -1)).toBeUndefined();
  });

  it('walks the rows of one long wrapped line', () => {
    const text = 'a'.repeat(100);
    expect(move(text, 100, -1)).toBe(60);
    expect(move(text, 60, -1)).toBe(20);
    expect(move(text, 20, -1)).toBeUndefined();
    expect(move(text, 20, 1)).toBe(60);
  });

  it('keeps the cursor off the middle of an emoji when it moves between lines', () => {
    const text = '🎉🎉\nabc';
    expect(move(text, text.length, -1)).toBe(2);
    expect(move(text, 1 + 5, -1)).toBe(0);
  });
});

describe('windowTop', () => {
  it('moves the window only as far as the cursor needs', () => {
    expect(windowTop(0, 3, 6, 100)).toBe(0);
    expect(windowTop(0, 9, 6, 100)).toBe(4);
    expect(windowTop(4, 6, 6, 100)).toBe(4);
    expect(windowTop(40, 2, 6, 100)).toBe(2);
    expect(windowTop(95, 99, 6, 100)).toBe(94);
  });
});
