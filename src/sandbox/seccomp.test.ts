import { describe, expect, it } from 'vitest';
import { unixSocketFilter } from './seccomp';

/** The instructions of a filter: [code, jt, jf, k]. */
function decode(bytes: Buffer): [number, number, number, number][] {
  const out: [number, number, number, number][] = [];
  for (let at = 0; at < bytes.length; at += 8)
    out.push([
      bytes.readUInt16LE(at),
      bytes[at + 2] as number,
      bytes[at + 3] as number,
      bytes.readUInt32LE(at + 4),
    ]);
  return out;
}

describe('the AF_UNIX seccomp filter', () => {
  it('checks the architecture first and kills an unknown one', () => {
    const program = decode(unixSocketFilter('x64') as Buffer);
    expect(program[0]).toEqual([0x20, 0, 0, 4]); // load seccomp_data.arch
    expect(program[1]).toEqual([0x15, expect.any(Number), 0, 0xc000003e]); // x86_64
    expect(program[2]).toEqual([0x15, expect.any(Number), 0, 0x40000003]); // i386 compat
    expect(program[3]).toEqual([0x06, 0, 0, 0x80000000]); // SECCOMP_RET_KILL_PROCESS
  });

  it('refuses socket(AF_UNIX) with EPERM and allows everything else', () => {
    const program = decode(unixSocketFilter('x64') as Buffer);
    const returns = program.filter(([code]) => code === 0x06).map(([, , , k]) => k);
    expect(returns).toContain(0x00050001); // SECCOMP_RET_ERRNO | EPERM
    expect(returns).toContain(0x7fff0000); // SECCOMP_RET_ALLOW
    // socket is 41 on x86_64 (and x32), 359 on i386; socketcall 102 on i386.
    const compared = program.filter(([code]) => code === 0x15).map(([, , , k]) => k);
    expect(compared).toEqual(expect.arrayContaining([41, 0x40000029, 359, 102, 1]));
    // Every jump lands inside the program.
    program.forEach(([code, jt, jf], at) => {
      if (code === 0x15) expect(Math.max(jt, jf) + at + 1).toBeLessThan(program.length);
    });
  });

  it('has a table for arm64 and none for an architecture it does not know', () => {
    expect(decode(unixSocketFilter('arm64') as Buffer)[1]?.[3]).toBe(0xc00000b7);
    expect(unixSocketFilter('riscv64')).toBeUndefined();
  });
});
