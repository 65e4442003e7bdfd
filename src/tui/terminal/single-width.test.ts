import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { isSingleWidth, simpleWidth } from './single-width';

describe('single-width characters', () => {
  it('are one column for string-width, every one of them', () => {
    const disagree: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (!isSingleWidth(code)) continue;
      const width = stringWidth(String.fromCharCode(code));
      if (width !== 1) disagree.push(`U+${code.toString(16).padStart(4, '0')} is ${width}`);
    }
    expect(disagree).toEqual([]);
  });

  it('keep their width next to each other, as string-width counts them', () => {
    const sample = '╭─ · → ⠙ Working… ● ✓ ✗ ❯ ⎿ Ωπ Жы é×÷ ░█ ☐ ☒ ⧗ ⏎ ⏵ ╰';
    expect(simpleWidth(sample)).toBe(stringWidth(sample));
  });

  it('leave text with anything else to the full measure', () => {
    for (const text of ['日本', '👍', 'e\u0301', '\u200d', 'a\tb', '\u001b[2m', '◽', '⚠️', '\u0483'])
      expect(simpleWidth(text)).toBeUndefined();
  });
});

describe('fastStringWidth', () => {
  it('answers as string-width does, coloured or not, simple or not', async () => {
    const { default: fastStringWidth } = await import('./fast-string-width');
    const texts = [
      '',
      'plain',
      '\u001b[2m╭──────╮\u001b[22m',
      '\u001b[36m❯\u001b[39m type here',
      '\u001b]8;;https://x.test\u0007link\u001b]8;;\u0007',
      '日本語 → done',
      '👍🏽 ok',
      'e\u0301e\u0301',
      '\u001b[1;31m● failed\u001b[0m ✗',
    ];
    for (const text of texts) expect([text, fastStringWidth(text)]).toEqual([text, stringWidth(text)]);
  });
});
