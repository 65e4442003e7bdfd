/**
 * Special files, for real: a FIFO nobody writes to, /dev/zero, a listening Unix socket, and
 * symlinks to them. Every one must be refused at once; before, a FIFO hung the tool forever and
 * /dev/zero was read until memory ran out.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolError } from '../../tool';
import { openRegularFile, readWholeRegularFile } from './regular-file';
import { makeTempDir } from './test-context';

const posix = process.platform !== 'win32';
let dir: string;
let server: Server | undefined;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolError);
  return (error as Error).message;
}

describe.runIf(posix)('special files', () => {
  it('refuses a FIFO without waiting for a writer, directly and through a symlink', async () => {
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(await refusal(openRegularFile(fifo, 'read'))).toMatch(
      /pipe is a FIFO \(named pipe\), not a regular file; the file tools read regular files only/,
    );
    await symlink(fifo, join(dir, 'link'));
    expect(await refusal(openRegularFile(join(dir, 'link'), 'change'))).toBe(
      `${join(dir, 'link')} (a link to ${fifo}) is a FIFO (named pipe), not a regular file; the file tools change regular files only.`,
    );
  });

  it.runIf(existsSync('/dev/zero'))('refuses /dev/zero and a symlink to it', async () => {
    expect(await refusal(openRegularFile('/dev/zero', 'read'))).toMatch(/^\/dev\/zero is a character device/);
    await symlink('/dev/zero', join(dir, 'zero.txt'));
    expect(
      await refusal(readWholeRegularFile(join(dir, 'zero.txt'), { purpose: 'read', tooLarge: () => 'big' })),
    ).toMatch(/zero\.txt \(a link to \/dev\/zero\) is a character device/);
  });

  it('refuses a socket, which cannot even be opened', async () => {
    const path = join(dir, 'sock');
    server = createServer();
    await new Promise<void>((resolve) => server!.listen(path, resolve));
    expect(await refusal(openRegularFile(path, 'read'))).toMatch(/sock is a socket, not a regular file/);
  });
});

describe('bounded whole reads', () => {
  it('reads a regular file whole and refuses one over the bound before reading it', async () => {
    const path = join(dir, 'f.txt');
    await writeFile(path, 'x'.repeat(100));
    const { bytes } = await readWholeRegularFile(path, {
      purpose: 'read',
      maxBytes: 100,
      tooLarge: () => '',
    });
    expect(bytes.toString()).toBe('x'.repeat(100));
    expect(
      await refusal(
        readWholeRegularFile(path, { purpose: 'read', maxBytes: 99, tooLarge: (size) => `too big: ${size}` }),
      ),
    ).toBe('too big: 100 bytes');
  });

  it.runIf(existsSync('/proc/self/status'))(
    'reads a file that stat reports as empty to its end',
    async () => {
      const { bytes, info } = await readWholeRegularFile('/proc/self/status', {
        purpose: 'read',
        tooLarge: () => '',
      });
      expect(info.size).toBe(0);
      expect(bytes.toString()).toContain('Pid:');
    },
  );
});
