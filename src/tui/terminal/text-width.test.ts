import { describe, expect, it } from 'vitest';
import { cutPoints } from './text-width';

const entries = (line: string) => [...cutPoints(line)];

describe('cutPoints', () => {
  it('cuts where no attribute is open, up to the first character it cannot measure', () => {
    expect(entries('ab')).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
    // Inside the colour no cut; after its close one, with the escape codes' length counted.
    expect(entries('a\x1b[31mb\x1b[39mc')).toEqual([
      [0, 0],
      [1, 1],
      [12, 2],
      [13, 3],
    ]);
    expect(entries('ab漢c')).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
  });

  it('reads an SGR sequence of up to 32 characters, and stops at a longer one', () => {
    const sgr = (length: number) => `\x1b[${'1;'.repeat((length - 4) / 2)}0m`;
    expect(sgr(32)).toHaveLength(32);
    expect(entries(`a${sgr(32)}b`)).toEqual([
      [0, 0],
      [1, 1],
      [33, 1],
      [34, 2],
    ]);
    expect(entries(`a${sgr(34)}b`)).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it('answers the same for a line measured before', () => {
    const line = '\x1b[2m│\x1b[22m typed \x1b[38;5;208mtext\x1b[39m 🙂 after';
    const first = entries(line);
    for (let i = 0; i < 1100; i++) cutPoints(`row ${i}`);
    expect(entries(line)).toEqual(first);
    expect(entries(line)).toEqual(first);
  });
});
