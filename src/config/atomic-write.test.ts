import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './atomic-write';

const makeTempDir = () => mkdtemp(join(tmpdir(), 'yoke-atomic-'));

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('replaces a file, keeps its mode and leaves no temp files', async () => {
    const path = join(dir, 'run.sh');
    await writeFile(path, 'old');
    await chmod(path, 0o751);
    await writeFileAtomic(path, Buffer.from('new'));
    expect(await readFile(path, 'utf8')).toBe('new');
    expect((await stat(path)).mode & 0o777).toBe(0o751);
    expect(await readdir(dir)).toEqual(['run.sh']);
  });

  it('replaces a file whose name is at the length limit', async () => {
    const path = join(dir, 'n'.repeat(250));
    await writeFile(path, 'old');
    await writeFileAtomic(path, Buffer.from('new'));
    expect(await readFile(path, 'utf8')).toBe('new');
  });

  it('creates missing parent folders', async () => {
    const path = join(dir, 'a', 'b', 'c.txt');
    await writeFileAtomic(path, Buffer.from('x'));
    expect(await readFile(path, 'utf8')).toBe('x');
  });

  it('writes through a symlink to its target and keeps the link', async () => {
    const target = join(dir, 'target.txt');
    const link = join(dir, 'link.txt');
    await writeFile(target, 'old');
    await symlink(target, link);
    await writeFileAtomic(link, Buffer.from('new'));
    expect(await readFile(target, 'utf8')).toBe('new');
    expect(await readlink(link)).toBe(target);
  });

  it('fails without touching anything when the parent path is a file', async () => {
    const blocker = join(dir, 'blocker');
    await writeFile(blocker, 'intact');
    await expect(writeFileAtomic(join(blocker, 'child.txt'), Buffer.from('x'))).rejects.toMatchObject({
      code: 'EEXIST',
      path: blocker,
    });
    expect(await readFile(blocker, 'utf8')).toBe('intact');
    expect(await readdir(dir)).toEqual(['blocker']);
  });

  it('leaves the original intact and removes the temp file when the rename fails', async () => {
    // A directory where the file should go makes rename fail after the temp file was written.
    const path = join(dir, 'taken');
    await mkdir(path);
    await writeFile(join(path, 'inside.txt'), 'keep');
    await expect(writeFileAtomic(path, Buffer.from('x'))).rejects.toMatchObject({ code: 'EISDIR' });
    expect(await readdir(dir)).toEqual(['taken']);
    expect(await readFile(join(path, 'inside.txt'), 'utf8')).toBe('keep');
  });
});

describe('writeFileAtomic when a step fails', () => {
  const steps = ['open', 'write', 'sync', 'rename'] as const;
  for (const failing of steps) {
    it(`keeps the old file and removes the temp file when "${failing}" fails`, async () => {
      const path = join(dir, 'data.json');
      await writeFile(path, 'old');
      const seen: string[] = [];
      const write = writeFileAtomic(path, Buffer.from('new'), {
        beforeStep: (step) => {
          seen.push(step);
          if (step === failing) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
        },
      });
      await expect(write).rejects.toThrow('no space left on device');
      expect(seen).toEqual(steps.slice(0, steps.indexOf(failing) + 1));
      expect(await readFile(path, 'utf8')).toBe('old');
      expect(await readdir(dir)).toEqual(['data.json']);
    });
  }

  it('creates no file at all when a new file fails', async () => {
    const path = join(dir, 'new.txt');
    await expect(
      writeFileAtomic(path, Buffer.from('x'), {
        beforeStep: (step) => {
          if (step === 'sync') throw new Error('I/O error');
        },
      }),
    ).rejects.toThrow('I/O error');
    expect(await readdir(dir)).toEqual([]);
  });
});
