import { describe, expect, it } from 'vitest';
import { frameSafe, printable } from './terminal-text';

const E = '\x1b';

describe('printable', () => {
  it('draws every control character as its picture, keeping newlines and tabs', () => {
    expect(printable(`a${E}]52;c;UFdO\x07b`)).toBe('a␛]52;c;UFdO␇b');
    expect(printable(`${E}[8mhidden${E}[0m`)).toBe('␛[8mhidden␛[0m');
    expect(printable('rm -rf /\rls\b\x7f\x9b2J')).toBe('rm -rf /␍ls␈␡�2J');
    expect(printable('line 1\r\n\tline 2 ✓ 日本')).toBe('line 1\n\tline 2 ✓ 日本');
  });
});

describe('frameSafe', () => {
  it("keeps Yoke's SGR styling and pictures everything else", () => {
    const styled = `${E}[1mbold${E}[22m ${E}[38;2;1;2;3mrgb${E}[39m`;
    expect(frameSafe(styled)).toBe(styled);
    expect(frameSafe(`${E}[1mx${E}[22m${E}]0;TITLE\x07${E}[3A${E}P+q${E}\\`)).toBe(
      `${E}[1mx${E}[22m␛]0;TITLE␇␛[3A␛P+q␛\\`,
    );
    expect(frameSafe(`a\r\nb${E}`)).toBe('a␍\nb␛');
  });
});
