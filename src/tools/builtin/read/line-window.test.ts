import { describe, expect, it } from 'vitest';
import { LineWindow, type WindowSpec } from './line-window';
import { MAX_LINE_CHARS } from './text-view';

/** Feeds `text` in pieces of `size` characters, so every break lands on a piece boundary somewhere. */
function windowOf(text: string, size: number, spec: Partial<WindowSpec> = {}): LineWindow {
  const window = new LineWindow({ startLine: 1, limit: 2000, maxChars: 100_000, ...spec });
  for (let at = 0; at < text.length; at += size) window.push(text.slice(at, at + size));
  window.finish();
  return window;
}

/** What `split` on the style's breaks gives, with no empty line after a final break. */
function expected(text: string, breaks: RegExp): string[] {
  const lines = text.split(breaks);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

describe('LineWindow', () => {
  const samples: Array<[string, string, RegExp, string]> = [
    ['LF', 'one\ntwo\n\nfour\nlast', /\n/, 'LF'],
    ['CRLF', 'one\r\ntwo\r\n\r\nfour\r\n', /\r?\n/, 'CRLF'],
    ['CR only', 'one\rtwo\r\rfour\r', /\r\n|\r|\n/, 'CR'],
    ['CR first, then mixed', 'one\rtwo\r\nthree\nfour', /\r\n|\r|\n/, 'CR'],
    ['a lone CR inside an LF file', 'a\nb\rc\n', /\n/, 'LF'],
  ];
  for (const [name, text, breaks, style] of samples) {
    it(`splits ${name} text the same whichever way it is cut into pieces`, () => {
      for (let size = 1; size <= text.length; size++) {
        const window = windowOf(text, size);
        expect(window.lines, `pieces of ${size}`).toEqual(expected(text, breaks));
        expect(window.lineCount).toBe(expected(text, breaks).length);
        expect(window.lineEnding).toBe(style);
      }
    });
  }

  it('keeps only the page and counts the rest', () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n');
    const window = windowOf(text, 7, { startLine: 40, limit: 3 });
    expect(window.lines).toEqual(['line 40', 'line 41', 'line 42']);
    expect(window.lineCount).toBe(100);
    expect(window.pageDone).toBe(true);
  });

  it('keeps at most MAX_LINE_CHARS of a huge line and says how much was cut', () => {
    const window = windowOf(`${'x'.repeat(50_000)}\r\nnext\r\n`, 4096);
    expect(window.lines[0]).toBe(
      `${'x'.repeat(MAX_LINE_CHARS)}… [line cut: ${50_000 - MAX_LINE_CHARS} more characters]`,
    );
    expect(window.lines[1]).toBe('next');
    expect(window.cutLongLines).toBe(1);
  });

  it('never cuts a line between the halves of a surrogate pair, nor shows a lone half', () => {
    const window = windowOf(`${'x'.repeat(MAX_LINE_CHARS - 1)}😀tail\nlone \ud800 half\n`, 100);
    expect(window.lines[0]).toBe(`${'x'.repeat(MAX_LINE_CHARS - 1)}… [line cut: 6 more characters]`);
    expect(window.lines[1]).toBe('lone \ufffd half');
  });

  it('stops at the character budget but always shows one line', () => {
    const window = windowOf(`${'y'.repeat(30)}\n`.repeat(10), 64, { maxChars: 100 });
    expect(window.lines).toHaveLength(3);
    expect(window.truncatedByTokenCap).toBe(true);
    expect(window.lineCount).toBe(10);
    const single = windowOf('z'.repeat(500), 64, { maxChars: 10 });
    expect(single.lines).toEqual(['z'.repeat(500)]);
  });
});
