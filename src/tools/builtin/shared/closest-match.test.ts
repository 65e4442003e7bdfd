import { describe, expect, it } from 'vitest';
import { describeNoMatch, foldedMatch, mostSimilarWindow } from './closest-match';

const file = [
  'function greet(name) {',
  '  const message = “Hello, ” + name;',
  '  console.log(message);',
  '}',
  '',
  'export const answer\u00a0= 42; // the answer – always',
].join('\n');

describe('closest match for a failed edit', () => {
  it('finds text that differs only by curly quotes and shows the exact file text', () => {
    const message = describeNoMatch(file, '  const message = "Hello, " + name;', 'a.js');
    expect(message).toContain('matches line 2');
    expect(message).toContain('const message = “Hello, ” + name;');
    expect(message).toContain('left double quote “ (U+201C)');
  });

  it('finds text that differs by a non-breaking space and an en dash', () => {
    const match = foldedMatch(file, 'export const answer = 42; // the answer - always');
    expect(match?.text).toBe('export const answer\u00a0= 42; // the answer – always');
    expect(match?.startLine).toBe(6);
    const message = describeNoMatch(file, 'export const answer = 42; // the answer - always', 'a.js');
    expect(message).toContain('non-breaking space (U+00A0)');
    expect(message).toContain('en dash – (U+2013)');
  });

  it('finds text that differs in indentation and inner whitespace runs across lines', () => {
    const match = foldedMatch(file, 'function greet(name)  {\n    const message');
    expect(match?.startLine).toBe(1);
    expect(match?.endLine).toBe(2);
    expect(match?.text).toBe('function greet(name) {\n  const message');
  });

  it('maps a folded match back through CRLF line endings', () => {
    const crlf = 'one\r\ntwo  three\r\nfour\r\n';
    expect(foldedMatch(crlf, 'two three\nfour')?.text).toBe('two  three\r\nfour');
  });

  it('falls back to the most similar window of lines with line numbers', () => {
    const message = describeNoMatch(file, '  console.log(mesage);\n}', 'a.js');
    expect(message).toContain('most similar text is lines 3-4');
    expect(message).toContain('3\t  console.log(message);');
  });

  it('stays within budget on large files and still finds the window', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line number ${i} with some filler text`);
    lines[15_000] = 'const special = computeTheThing(alpha, beta);';
    lines[15_001] = 'return special;';
    const window = mostSimilarWindow(
      lines.join('\n'),
      'const special = computeThing(alpha, beta);\nreturn special;',
    );
    expect(window?.startLine).toBe(15_001);
  });

  it('says when nothing similar exists, and spots pasted line numbers', () => {
    expect(describeNoMatch(file, 'zzzz qqqq xxxx', 'a.js')).toContain('Nothing similar');
    expect(describeNoMatch(file, '3\t  console.log(message);\n4\t}', 'a.js')).toContain('line numbers');
  });
});
