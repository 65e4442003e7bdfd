import { describe, expect, it } from 'vitest';
import { colourStyle, plainStyle, stripAnsi } from './ansi';
import { highlightLine } from './highlight';
import { renderMarkdown } from './markdown';
import { splitSettled } from './markdown-blocks';

describe('renderMarkdown', () => {
  it('renders headings, lists, quotes and code blocks as terminal text', () => {
    const text = '# Title\n\n- one\n- [x] done\n1. first\n> quoted\n\n```ts\nconst a = 1;\n```';
    expect(renderMarkdown(text, plainStyle).split('\n')).toEqual([
      'Title',
      '',
      '• one',
      '• ☒ done',
      '1. first',
      '▎ quoted',
      '',
      '╭ ts',
      '│ const a = 1;',
    ]);
  });

  it('styles inline code and bold with colour, and leaves the words intact', () => {
    const out = renderMarkdown('run `npm test` **now**', colourStyle);
    expect(out).toContain('\x1b[36mnpm test\x1b[39m');
    expect(out).toContain('\x1b[1mnow\x1b[22m');
    expect(stripAnsi(out)).toBe('run npm test now');
  });

  it('highlights keywords, strings and comments of a known language only', () => {
    const line = highlightLine('const s = "x"; // note', 'ts', colourStyle);
    expect(line).toContain('\x1b[35mconst\x1b[39m');
    expect(line).toContain('\x1b[32m"x"\x1b[39m');
    expect(line).toContain('\x1b[90m// note\x1b[39m');
    expect(highlightLine('const s', 'brainfuck', colourStyle)).toBe('const s');
  });
});

describe('splitSettled', () => {
  it('cuts at the last blank line outside a code fence', () => {
    expect(splitSettled('para one\n\npara tw')).toEqual({ settled: 'para one\n\n', rest: 'para tw' });
    expect(splitSettled('```\ncode\n\nmore')).toEqual({ settled: '', rest: '```\ncode\n\nmore' });
    expect(splitSettled('```\ncode\n```\nafter')).toEqual({ settled: '```\ncode\n```\n', rest: 'after' });
  });
});
