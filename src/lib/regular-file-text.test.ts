/**
 * Reads of files a repository names, for real: a FIFO nobody writes to (before, a memory file,
 * settings file or SKILL.md that was one hung Yoke's start-up for good), /dev/zero, a file over
 * the bound, and the control: a regular file, through a symlink too, read whole.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  readRegularBytesSync,
  readRegularText,
  readRegularTextSync,
  UnreadableFileError,
} from './regular-file-text';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'yoke-regular-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function refusedAsync(path: string, maxBytes = 1024): Promise<UnreadableFileError> {
  const error = await readRegularText(path, maxBytes).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UnreadableFileError);
  return error as UnreadableFileError;
}

function refusedSync(path: string, maxBytes = 1024): UnreadableFileError {
  try {
    readRegularTextSync(path, maxBytes);
  } catch (error) {
    expect(error).toBeInstanceOf(UnreadableFileError);
    return error as UnreadableFileError;
  }
  throw new Error(`${path} was read`);
}

describe.runIf(process.platform !== 'win32')('reading a file the repository names', () => {
  it('refuses a FIFO at once, sync and async, through a symlink too', async () => {
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    symlinkSync(fifo, join(dir, 'CLAUDE.md'));
    expect((await refusedAsync(fifo)).message).toBe(`${fifo} is a FIFO (named pipe), not a regular file`);
    expect(refusedSync(join(dir, 'CLAUDE.md')).kind).toBe('a FIFO (named pipe)');
  });

  it.runIf(existsSync('/dev/zero'))('refuses a device instead of reading it without end', async () => {
    expect((await refusedAsync('/dev/zero')).reason).toBe('is a character device, not a regular file');
    expect(refusedSync('/dev/zero').kind).toBe('a character device');
  });

  it('refuses a file over the bound, naming its size; one at the bound is read whole', async () => {
    const big = join(dir, 'big.md');
    writeFileSync(big, 'a'.repeat(2048));
    expect((await refusedAsync(big, 2047)).reason).toBe('is 2.0 KB, over the 2.0 KB read at most');
    expect(refusedSync(big, 100).reason).toBe('is 2.0 KB, over the 100 bytes read at most');
    expect(await readRegularText(big, 2048)).toHaveLength(2048);
    expect(readRegularBytesSync(big, 2048)).toHaveLength(2048);
  });

  it.runIf(existsSync('/proc/self/status'))(
    'bounds a file that reports size 0 but has more (as /proc files do)',
    async () => {
      expect((await refusedAsync('/proc/self/status', 64)).reason).toBe(
        'is over 64 bytes, over the 64 bytes read at most',
      );
      expect(readRegularTextSync('/proc/self/status', 1024 * 1024)).toContain('Pid:');
    },
  );

  it('reads a regular file, through a symlink too; a missing file keeps its ENOENT', async () => {
    writeFileSync(join(dir, 'notes.md'), 'héllo\n');
    symlinkSync(join(dir, 'notes.md'), join(dir, 'link.md'));
    expect(await readRegularText(join(dir, 'link.md'), 1024)).toBe('héllo\n');
    expect(readRegularTextSync(join(dir, 'notes.md'), 1024)).toBe('héllo\n');
    await expect(readRegularText(join(dir, 'none.md'), 1024)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(() => readRegularTextSync(join(dir, 'none.md'), 1024)).toThrow(/ENOENT/);
  });
});
