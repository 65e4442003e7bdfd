import { describe, expect, it, vi } from 'vitest';
import { LatestLine } from './latest-line';

function track() {
  const lines: string[] = [];
  let clock = 0;
  const latest = new LatestLine((line) => lines.push(line), {
    intervalMs: 100,
    quietMs: 0,
    now: () => clock,
  });
  return { lines, latest, advance: (ms: number) => (clock += ms) };
}

describe('LatestLine', () => {
  it('reports the last complete line, plain, and waits for a line to end', () => {
    const { lines, latest } = track();
    latest.push('step 1\nstep 2\nste');
    expect(lines).toEqual(['step 2']);
  });

  it('at most once per interval, then the newest line', () => {
    const { lines, latest, advance } = track();
    latest.push('a\n');
    latest.push('b\n');
    advance(150);
    latest.push('c\n');
    expect(lines).toEqual(['a', 'c']);
  });

  it('drops colours, cursor movement and control characters; a bar redrawn with \\r counts as its last state', () => {
    const { lines, latest, advance } = track();
    latest.push('\x1b[32mok\x1b[0m done\x07\n');
    advance(150);
    latest.push('[##  ] 50%\r[####] 100%\r');
    expect(lines).toEqual(['ok done', '[####] 100%']);
  });

  it('skips blank lines for the last one with text', () => {
    const { lines, latest } = track();
    latest.push('building\n\n   \n');
    expect(lines).toEqual(['building']);
  });

  it('reports a line held back by the interval once the interval is over', () => {
    vi.useFakeTimers();
    try {
      const lines: string[] = [];
      const latest = new LatestLine((line) => lines.push(line), { quietMs: 0, intervalMs: 100 });
      latest.push('a\nb\n');
      latest.push('c\n');
      expect(lines).toEqual(['b']);
      vi.advanceTimersByTime(100);
      expect(lines).toEqual(['b', 'c']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says nothing in the quiet first second, then the latest line, and nothing after the command ends', () => {
    vi.useFakeTimers();
    try {
      const lines: string[] = [];
      const latest = new LatestLine((line) => lines.push(line), { quietMs: 1000 });
      latest.push('step 1\n');
      vi.advanceTimersByTime(999);
      expect(lines).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(lines).toEqual(['step 1']);
      latest.stop();
      latest.push('step 2\n');
      expect(lines).toEqual(['step 1']);
    } finally {
      vi.useRealTimers();
    }
  });
});
