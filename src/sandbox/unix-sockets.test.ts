import { describe, expect, it } from 'vitest';
import { boundSocketPaths, socketsToMask } from './unix-sockets';

const LISTING = [
  'Num       RefCount Protocol Flags    Type St Inode Path',
  '0000000011: 00000002 00000000 00010000 0001 01 101 /home/u/.gnupg/S.gpg-agent',
  '0000000012: 00000002 00000000 00010000 0001 01 102 /var/run/docker.sock',
  '0000000013: 00000002 00000000 00010000 0001 01 103 @/tmp/.X11-unix/X0',
  '0000000014: 00000003 00000000 00000000 0001 03 104',
  '0000000015: 00000002 00000000 00010000 0001 01 105 /home/u/my sockets/a.sock',
  '0000000016: 00000002 00000000 00010000 0001 01 106 /tmp/work/project/dev.sock',
  '0000000017: 00000002 00000000 00010000 0001 01 107 /home/u/allowed.sock',
].join('\n');

describe('the sockets masked when some are allowed', () => {
  it('lists bound socket paths, with spaces, and skips abstract and unbound ones', () => {
    expect(boundSocketPaths(LISTING)).toEqual([
      '/home/u/.gnupg/S.gpg-agent',
      '/var/run/docker.sock',
      '/home/u/my sockets/a.sock',
      '/tmp/work/project/dev.sock',
      '/home/u/allowed.sock',
    ]);
  });

  it('masks all but the allowed ones, leaving those the private folders hide unless bound back', () => {
    expect(socketsToMask(['/home/u/allowed.sock'], ['/tmp/work/project'], LISTING)).toEqual([
      '/home/u/.gnupg/S.gpg-agent',
      '/home/u/my sockets/a.sock',
      '/tmp/work/project/dev.sock',
    ]);
  });
});
