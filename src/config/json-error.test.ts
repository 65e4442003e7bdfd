import { describe, expect, it } from 'vitest';
import { locateJsonError } from './json-error';

describe('locateJsonError', () => {
  it.each([
    ['{"a": }', 1, 7],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3],
    ['{"a": 1', 1, 8],
    ['{"a": "x\ny"}', 1, 9],
    ['{"a": tru}', 1, 7],
    ['{"a": 1} x', 1, 10],
    ["{'a': 1}", 1, 2],
  ])('finds the error in %j at line %i column %i', (text, line, column) => {
    expect(locateJsonError(text)).toMatchObject({ line, column });
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it('names a trailing comma as such, at the closing bracket', () => {
    expect(locateJsonError('{\n  "allow": ["Bash(ls)",]\n}')).toEqual({
      line: 2,
      column: 24,
      message: "a comma before ']' (JSON allows no comma after the last item; remove it)",
    });
    expect(locateJsonError('{"a": 1,\n}')).toMatchObject({
      line: 2,
      column: 1,
      message: expect.stringContaining("before '}'"),
    });
    expect(locateJsonError('[,]')).toMatchObject({ column: 2, message: "unexpected ','" });
  });

  it('accepts valid JSON', () => {
    expect(locateJsonError('{"a": [1, -2.5e3, true, null, "\\u00e9\\n"], "b": {}}')).toBeUndefined();
  });
});
