import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from './test-context';
import { writeAllOrNone } from './write-all';

describe('writeAllOrNone', () => {
  it('writes every file', async () => {
    const dir = await makeTempDir('yoke-write-all-');
    const changes = ['a', 'b'].map((name) => {
      const path = join(dir, name);
      writeFileSync(path, `old ${name}`);
      return { path, before: Buffer.from(`old ${name}`), after: Buffer.from(`new ${name}`) };
    });
    await writeAllOrNone(changes);
    expect(changes.map((c) => readFileSync(c.path, 'utf8'))).toEqual(['new a', 'new b']);
  });

  it('puts back the files already written when a later write fails', async () => {
    const dir = await makeTempDir('yoke-write-all-');
    const changes = ['a', 'b', 'c'].map((name) => {
      const path = join(dir, name);
      writeFileSync(path, `old ${name}`);
      return { path, before: Buffer.from(`old ${name}`), after: Buffer.from(`new ${name}`) };
    });
    let renames = 0;
    // The third rename fails as a vanished folder or full disk would (as root, modes stop nothing).
    const beforeStep = (step: string) => {
      if (step === 'rename' && ++renames === 3)
        throw Object.assign(new Error('no space'), { code: 'ENOSPC' });
    };
    await expect(writeAllOrNone(changes, { beforeStep })).rejects.toThrow(/No file was changed\.$/);
    expect(changes.map((c) => readFileSync(c.path, 'utf8'))).toEqual(['old a', 'old b', 'old c']);
  });
});
