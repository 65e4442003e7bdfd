import { describe, expect, it } from 'vitest';
import { displayWidth } from './display-width';

describe('displayWidth', () => {
  it('counts terminal columns per character as a terminal draws them', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('中文')).toBe(4);
    expect(displayWidth('日本語のテキスト')).toBe(16);
    expect(displayWidth('🎉')).toBe(2);
    // Several code points joined into one emoji, and a base letter with a combining accent.
    expect(displayWidth('👨‍👩‍👧')).toBe(2);
    expect(displayWidth('👍🏽')).toBe(2);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('©')).toBe(1);
    // Every printable ASCII character is one column, alone or next to a wide one.
    const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
    expect(displayWidth(ascii)).toBe(95);
    expect(displayWidth(`${ascii}中`)).toBe(97);
  });
});
