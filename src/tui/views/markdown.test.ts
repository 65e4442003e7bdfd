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

describe('markdown tables', () => {
  const table =
    '| Name | Count | Note |\n|:-----|------:|:----:|\n| alpha | 1 | first |\n| beta 中文 | 22 | 🎉 |';

  it('lines the columns up in a box, aligned as the delimiter row says, wide characters counted as two', () => {
    expect(renderMarkdown(`Before\n\n${table}\n\nAfter`, plainStyle).split('\n')).toEqual([
      'Before',
      '',
      '┌───────────┬───────┬───────┐',
      '│ Name      │ Count │ Note  │',
      '├───────────┼───────┼───────┤',
      '│ alpha     │     1 │ first │',
      '│ beta 中文 │    22 │  🎉   │',
      '└───────────┴───────┴───────┘',
      '',
      'After',
    ]);
  });

  it('styles the cells and keeps an escaped pipe in its cell', () => {
    const out = renderMarkdown('| a | b |\n|---|---|\n| `x\\|y` | **bold** |', colourStyle);
    expect(out).toContain('\x1b[36mx|y\x1b[39m');
    expect(out).toContain('\x1b[1mbold\x1b[22m');
    expect(stripAnsi(out).split('\n')[3]).toBe('│ x|y │ bold │');
  });

  it('shows a table wider than the room as one block per row', () => {
    expect(renderMarkdown(table, plainStyle, 20).split('\n')).toEqual([
      'Name: alpha',
      'Count: 1',
      'Note: first',
      '',
      'Name: beta 中文',
      'Count: 22',
      'Note: 🎉',
    ]);
  });

  it('leaves pipes that are not a table as they are', () => {
    expect(renderMarkdown('a | b\nno delimiter', plainStyle)).toBe('a | b\nno delimiter');
  });
});

describe('splitSettled', () => {
  it('cuts at the last blank line outside a code fence', () => {
    expect(splitSettled('para one\n\npara tw')).toEqual({ settled: 'para one\n\n', rest: 'para tw' });
    expect(splitSettled('```\ncode\n\nmore')).toEqual({ settled: '', rest: '```\ncode\n\nmore' });
    expect(splitSettled('```\ncode\n```\nafter')).toEqual({ settled: '```\ncode\n```\n', rest: 'after' });
  });
});
