import { describe, expect, it } from 'vitest';
import widestLineOfInk from 'widest-line';
import widestLine from './widest-line';

// Ink's own function, which the vendor bundle's copy replaces: both must answer the same for the
// same text, the first time and from memory.
const samples = [
  '',
  'plain',
  'two\nlines that differ',
  '\x1b[1mbold\x1b[22m and \x1b[38;5;208mcoloured\x1b[39m',
  '界 wide, 🙂 emoji, 👨‍👩‍👧 family, e\u0301 combined',
  '\x1b]8;;https://example.com\x07link\x1b]8;;\x07\nnext',
  '\t tab and \u200b zero-width',
];

function randomText(seed: number): string {
  const pieces = ['a', ' ', 'Z', '界', '🙂', '\x1b[31m', '\x1b[0m', '\n', 'é', '\u0301', '│', '—'];
  let state = seed;
  let text = '';
  for (let i = 0; i < 40; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    text += pieces[state % pieces.length];
  }
  return text;
}

describe('widestLine (Ink vendor seam)', () => {
  it('measures as widest-line does, first time and remembered', () => {
    const texts = [...samples, ...Array.from({ length: 200 }, (_, i) => randomText(i + 1))];
    for (let pass = 0; pass < 2; pass++)
      for (const text of texts) expect(widestLine(text), JSON.stringify(text)).toBe(widestLineOfInk(text));
  });

  it('still measures right after forgetting what it remembered', () => {
    for (let i = 0; i < 4100; i++) expect(widestLine(`row ${i} 界`)).toBe(`row ${i}`.length + 3);
    expect(widestLine('界界')).toBe(4);
  });
});
