import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskPathFs, emptyPathFs, RealPaths } from './real-paths';

let root: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-real-paths-')));
  mkdirSync(join(root, 'proj/src'), { recursive: true });
  mkdirSync(join(root, 'outside/deep'), { recursive: true });
  writeFileSync(join(root, 'proj/.env'), 'SECRET');
  writeFileSync(join(root, 'outside/x'), 'x');
  symlinkSync(join(root, 'outside/deep'), join(root, 'proj/deep-link'));
  symlinkSync('.env', join(root, 'proj/env-link'));
  symlinkSync('env-link', join(root, 'proj/chain'));
  symlinkSync(join(root, 'outside/new-file'), join(root, 'proj/dangling'));
  symlinkSync('loop-b', join(root, 'proj/loop-a'));
  symlinkSync('loop-a', join(root, 'proj/loop-b'));
  symlinkSync(join(root, 'proj'), join(root, 'proj-link'));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('RealPaths', () => {
  const paths = () => new RealPaths(diskPathFs);

  it('follows a symlink chain and lists every link passed', () => {
    expect(paths().of(join(root, 'proj/chain'))).toEqual({
      real: join(root, 'proj/.env'),
      links: [join(root, 'proj/chain'), join(root, 'proj/env-link')],
    });
  });

  it('leaves through a link before `..`, as the kernel does (cat deep-link/../x reads outside/x)', () => {
    expect(paths().from(join(root, 'proj'), 'deep-link/../x')?.real).toBe(join(root, 'outside/x'));
  });

  it('follows a dangling link to where a write would create the file', () => {
    expect(paths().of(join(root, 'proj/dangling'))?.real).toBe(join(root, 'outside/new-file'));
  });

  it('keeps a missing tail below the real path of its nearest existing parent', () => {
    expect(paths().of(join(root, 'proj-link/new/dir/f.ts'))?.real).toBe(join(root, 'proj/new/dir/f.ts'));
    expect(paths().of(join(root, 'proj/src/a.ts'))).toEqual({ real: join(root, 'proj/src/a.ts'), links: [] });
  });

  it('gives up on a symlink loop', () => {
    expect(paths().of(join(root, 'proj/loop-a'))).toBeUndefined();
  });

  it('resolves to the path itself where nothing exists', () => {
    expect(new RealPaths(emptyPathFs).from('/home/u/proj', 'src/../a.ts')).toEqual({
      real: '/home/u/proj/a.ts',
      links: [],
    });
  });
});
