import { execFileSync } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bytes } from './encoding-fixtures';
import { makeTempDir } from './test-context';
import { readTextHead } from './text-head';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function head(name: string, content: Buffer, maxBytes = 100) {
  await writeFile(join(dir, name), content);
  return readTextHead(join(dir, name), maxBytes);
}

describe('readTextHead (files shown again after a compaction)', () => {
  it('decodes as Read does: Latin-1, UTF-16 with a BOM, UTF-8', async () => {
    expect(await head('a.txt', bytes('caf', [0xe9], '\n'))).toEqual({ text: 'café\n', truncated: false });
    const utf16 = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('grüß', 'utf16le').swap16()]);
    expect(await head('b.txt', utf16)).toEqual({ text: 'grüß', truncated: false });
  });

  it('reads only the bytes asked for, without cutting a character in two', async () => {
    // "ééé" is six bytes of UTF-8; five of them end inside the third é.
    expect(await head('c.txt', Buffer.from('ééé'), 5)).toEqual({ text: 'éé', truncated: true });
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('abcdef', 'utf16le')]);
    // BOM and "ab" are six bytes; the seventh is half of "c".
    expect(await head('d.txt', utf16, 7)).toEqual({ text: 'ab', truncated: true });
  });

  it('gives nothing for binary files, images, PDFs, missing files and FIFOs', async () => {
    expect(await head('e.txt', Buffer.from([0x41, 0x00, 0x42]))).toBeUndefined();
    expect(await head('f.png', Buffer.from('looks like text'))).toBeUndefined();
    expect(await head('g.pdf', Buffer.from('%PDF-1.4'))).toBeUndefined();
    expect(await readTextHead(join(dir, 'missing.txt'), 10)).toBeUndefined();
    if (process.platform !== 'win32') {
      execFileSync('mkfifo', [join(dir, 'pipe.txt')]);
      expect(await readTextHead(join(dir, 'pipe.txt'), 10)).toBeUndefined();
    }
  });
});
