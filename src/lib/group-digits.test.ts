import { describe, expect, it } from 'vitest';
import { groupDigits } from './group-digits';

describe('groupDigits', () => {
  it("writes every whole number as toLocaleString('en-US') does", () => {
    const samples = [0, 7, 999, 1000, 1001, 99_999, 100_000, 1_234_567, -1, -999, -1000, -1_234_567];
    for (let n = 1; n < Number.MAX_SAFE_INTEGER / 7; n = n * 7 + 3) samples.push(n, -n, n + 1);
    samples.push(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER);
    for (let n = 0; n < 200_000; n += 37) samples.push(n);
    for (const n of samples) expect([n, groupDigits(n)]).toEqual([n, n.toLocaleString('en-US')]);
  });

  it('leaves fractions and huge numbers to toLocaleString', () => {
    for (const n of [1234.5678, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY])
      expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
  });
});
