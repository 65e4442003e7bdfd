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
  });
});
