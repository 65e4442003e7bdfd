import { describe, expect, it } from 'vitest';
import { splitPatternBase } from './glob-base';

describe('splitPatternBase', () => {
  it('takes the leading literal folders of an absolute pattern as the folder to search', () => {
    expect(splitPatternBase('/repo/src/**/*.ts', '/p')).toEqual({ base: '/repo/src', pattern: '/**/*.ts' });
    expect(splitPatternBase('/repo/a.ts', '/p')).toEqual({ base: '/repo', pattern: '/a.ts' });
    expect(splitPatternBase('/etc/*', '/p')).toEqual({ base: '/etc', pattern: '/*' });
  });

  it('moves a relative pattern with leading folders or `..` to that folder, anchored', () => {
    expect(splitPatternBase('../../x/**', '/home/u/proj')).toEqual({ base: '/home/x', pattern: '/**' });
    expect(splitPatternBase('src/*.ts', '/p')).toEqual({ base: '/p/src', pattern: '/*.ts' });
    expect(splitPatternBase('./src/a.ts', '/p')).toEqual({ base: '/p/src', pattern: '/a.ts' });
  });

  it('keeps a pattern without literal folders as it is (it matches at any depth)', () => {
    expect(splitPatternBase('*.ts', '/p')).toEqual({ base: '/p', pattern: '*.ts' });
    expect(splitPatternBase('**/x.ts', '/p')).toEqual({ base: '/p', pattern: '**/x.ts' });
    expect(splitPatternBase('a.ts', '/p')).toEqual({ base: '/p', pattern: 'a.ts' });
    expect(splitPatternBase('{src,/etc}/*', '/p')).toEqual({ base: '/p', pattern: '{src,/etc}/*' });
  });
});
