import { describe, expect, it } from 'vitest';
import { isWithin, relativeWithin } from './path-within';

describe('relativeWithin', () => {
  it.each([
    ['/project', '/project', ''],
    ['/project', '/project/src/a.ts', 'src/a.ts'],
    ['/project', '/project/..cache/x', '..cache/x'],
    ['/project', '/project/src/../b', 'b'],
    ['/project', '/project-other/a', undefined],
    ['/project', '/', undefined],
    ['/project/src', '/project', undefined],
    ['/project', '/project/../etc/passwd', undefined],
  ])('%s holds %s as %j', (dir, path, expected) => {
    expect(relativeWithin(dir, path)).toBe(expected);
    expect(isWithin(path, dir)).toBe(expected !== undefined);
  });
});
