import { describe, expect, it } from 'vitest';
import { colourStyle, stripAnsi } from './ansi';
import { displayWidth } from './display-width';
import { renderAnswerBlock } from './markdown';
import { wrapRows, wrapText } from './wrap-rows';

const W = 20;
const word = (width: number, char = 'a') => char.repeat(width);

describe('wrapRows', () => {
  it('starts the row after a line exactly as wide as the room at its first word (w-1, w, w+1)', () => {
    expect(wrapRows(`${word(W - 1)} next`, W)).toEqual([word(W - 1), 'next']);
    // Ink's wrapping put the space after a full row at the start of the next: " next".
    expect(wrapRows(`${word(W)} next`, W)).toEqual([word(W), 'next']);
    expect(wrapRows(`${word(W + 1)} next`, W)).toEqual([word(W), 'a next']);
  });

  it('counts wide characters as two columns at w-1, w and w+1', () => {
    // 9 wide characters and one narrow: 19 columns; 10 wide: 20; 10 wide and one narrow: 21.
    expect(wrapRows(`${word(9, '中')}a next`, W)).toEqual([`${word(9, '中')}a`, 'next']);
    expect(wrapRows(`${word(10, '中')} next`, W)).toEqual([word(10, '中'), 'next']);
    expect(wrapRows(`${word(10, '中')}a next`, W)).toEqual([word(10, '中'), 'a next']);
    // A wide character that would take the last column and one past it moves to the next row.
    expect(wrapRows(`a${word(10, '中')}`, W)).toEqual([`a${word(9, '中')}`, '中']);
  });

  it('keeps the indent of the first row only, and no row wider than the room', () => {
    const rows = wrapRows(`  - ${word(W - 4)} more words here`, W);
    expect(rows).toEqual([`  - ${word(W - 4)}`, 'more words here']);
    for (const row of wrapRows('  lorem ipsum dolor sit amet consectetur adipiscing elit', W))
      expect(displayWidth(row)).toBeLessThanOrEqual(W);
  });

  it('closes a colour open at a break and opens it again on the next row', () => {
    const rows = wrapRows(`${word(W)} \x1b[1m\x1b[36mbold cyan ${word(W)}\x1b[39m\x1b[22m tail`, W);
    expect(rows.map(stripAnsi)).toEqual([word(W), 'bold cyan', word(W), 'tail']);
    expect(rows[1]).toBe('\x1b[1m\x1b[36mbold cyan\x1b[22;39m');
    expect(rows[2]).toBe(`\x1b[1m\x1b[36m${word(W)}\x1b[39m\x1b[22m`);
    expect(rows[3]).toBe('tail');
  });
});

describe('renderAnswerBlock with a width', () => {
  it('wraps a paragraph whose first row fills the room without shifting the next row', () => {
    const text = `${word(W)} second row **bold**\n${word(10, '中')} after`;
    expect(stripAnsi(renderAnswerBlock(text, colourStyle, W)).split('\n')).toEqual([
      word(W),
      'second row bold',
      word(10, '中'),
      'after',
    ]);
  });
});

describe('wrapText', () => {
  it('wraps each line, the same when a line was wrapped before and again at another width', () => {
    const text = `${word(12)} ${word(12)}\n\x1b[31m${word(8)} 中文 ${word(8)}\x1b[39m\n`;
    const expected = (width: number) =>
      text
        .split('\n')
        .flatMap((line) => wrapRows(line, width))
        .join('\n');
    for (let pass = 0; pass < 2; pass++) {
      expect(wrapText(text, W)).toBe(expected(W));
      expect(wrapText(text, 10)).toBe(expected(10));
    }
    expect(wrapText(text, W)).not.toBe(wrapText(text, 10));
  });
});
