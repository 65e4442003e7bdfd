import { describe, expect, it } from 'vitest';
import { hasPattern, writeCandidates } from './write-candidates';

describe('writeCandidates', () => {
  it('expands braces as bash does, ranges and nesting included', () => {
    expect(writeCandidates('src/{a,b}', [])).toEqual(['src/a', 'src/b']);
    expect(writeCandidates('x{1..3}', [])).toEqual(['x1', 'x2', 'x3']);
    expect(writeCandidates('.gi{s..u}', [])).toEqual(['.gis', '.git', '.giu']);
    expect(writeCandidates('{a,b{c,d}}', [])).toEqual(['a', 'bc', 'bd']);
    expect(writeCandidates('{x}', [])).toEqual(['{x}']);
  });

  it('puts every sensitive name a glob component can match in its place', () => {
    expect(writeCandidates('.gi?/hooks/x', ['.git', '.envrc'])).toEqual(['.gi?/hooks/x', '.git/hooks/x']);
    expect(writeCandidates('src/*.ts', ['.git', 'package.json'])).toEqual(['src/*.ts']);
    expect(writeCandidates('.GI?/x', ['.git'])).toEqual(['.GI?/x', '.git/x']);
  });

  it('gives up past the bound', () => {
    expect(writeCandidates('{1..9}{1..9}{1..9}', [])).toBeUndefined();
  });

  it('tells patterns from plain paths', () => {
    expect(hasPattern('src/a.ts')).toBe(false);
    expect(hasPattern('src/{a,b}')).toBe(true);
    expect(hasPattern('a*')).toBe(true);
  });
});
