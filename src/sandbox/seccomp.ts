/**
 * The seccomp filter bwrap installs (`--seccomp <fd>`) before it runs the command: a classic-BPF
 * program, written here as bytes, that makes `socket(AF_UNIX, …)` fail with EPERM.
 *
 * Why: a path-based Unix socket crosses network namespaces. With `/run/docker.sock`, an ssh or
 * gpg agent, or a D-Bus session bus reachable, "no network" would still let a command start
 * containers or sign as the user. Blocking socket creation (not connect) covers every path and
 * the abstract namespace at once; `socketpair` stays allowed — it only joins two ends the process
 * already owns, and Node, Python and make use it for their own children.
 *
 * The filter checks the architecture first: a syscall number means something else under another
 * ABI (on x86_64, 32-bit `int 0x80` calls arrive as AUDIT_ARCH_I386, where 41 is `dup`). Known
 * compat ABIs get their own rule; the 32-bit `socketcall` multiplexer hides the family behind a
 * pointer the filter cannot read, so creating sockets through it is refused outright. Any other
 * architecture is killed rather than guessed at.
 */

/** `struct seccomp_data` offsets (linux/seccomp.h): nr, arch, then args[6] of 64 bits each. */
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
/** The low 32 bits of args[0] on a little-endian machine (every architecture below is). */
const OFFSET_ARG0_LOW = 16;

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_RET_K = 0x06;

const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_KILL_PROCESS = 0x80000000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;
const AF_UNIX = 1;
/** `socketcall(SYS_SOCKET, args)`: the first argument names the call. */
const SYS_SOCKET = 1;

/** An architecture the filter knows: its audit id and the syscall numbers it must check. */
type ArchRule = {
  name: string;
  audit: number;
  /** `socket(2)`; its first argument is the family. */
  socket: readonly number[];
  /** `socketcall(2)`, where the ABI has one. */
  socketcall?: number;
};

const X86_64: ArchRule = { name: 'x86_64', audit: 0xc000003e, socket: [41, 0x40000000 + 41] };
const I386: ArchRule = { name: 'i386', audit: 0x40000003, socket: [359], socketcall: 102 };
const AARCH64: ArchRule = { name: 'aarch64', audit: 0xc00000b7, socket: [198] };
const ARM: ArchRule = { name: 'arm', audit: 0x40000028, socket: [281] };

/** The ABIs a process on this machine can call the kernel with (native first). */
export function archRulesFor(nodeArch: string): readonly ArchRule[] | undefined {
  if (nodeArch === 'x64') return [X86_64, I386];
  if (nodeArch === 'arm64') return [AARCH64, ARM];
  return undefined;
}

type Instruction = { code: number; jt: number | string; jf: number | string; k: number };

const ld = (offset: number): Instruction => ({ code: BPF_LD_W_ABS, jt: 0, jf: 0, k: offset });
const ret = (value: number): Instruction => ({ code: BPF_RET_K, jt: 0, jf: 0, k: value });
/** Jump to a label (or fall through with 0) on equality. */
const jeq = (value: number, jt: number | string, jf: number | string): Instruction => ({
  code: BPF_JEQ_K,
  jt,
  jf,
  k: value,
});

/** The program as instructions with labels; `assemble` resolves them to relative jumps. */
function program(arches: readonly ArchRule[]): { code: Instruction[]; labels: Map<string, number> } {
  const code: Instruction[] = [];
  const labels = new Map<string, number>();
  const label = (name: string) => labels.set(name, code.length);

  code.push(ld(OFFSET_ARCH));
  arches.forEach((arch, i) => {
    code.push(jeq(arch.audit, `arch-${i}`, 0));
  });
  code.push(ret(SECCOMP_RET_KILL_PROCESS));

  arches.forEach((arch, i) => {
    label(`arch-${i}`);
    code.push(ld(OFFSET_NR));
    for (const nr of arch.socket) code.push(jeq(nr, 'check-family', 0));
    if (arch.socketcall !== undefined) code.push(jeq(arch.socketcall, 'check-socketcall', 0));
    code.push(ret(SECCOMP_RET_ALLOW));
  });

  label('check-family');
  code.push(ld(OFFSET_ARG0_LOW));
  code.push(jeq(AF_UNIX, 'deny', 0));
  code.push(ret(SECCOMP_RET_ALLOW));
  if (arches.some((arch) => arch.socketcall !== undefined)) {
    label('check-socketcall');
    code.push(ld(OFFSET_ARG0_LOW));
    code.push(jeq(SYS_SOCKET, 'deny', 0));
    code.push(ret(SECCOMP_RET_ALLOW));
  }
  label('deny');
  code.push(ret(SECCOMP_RET_ERRNO | EPERM));
  return { code, labels };
}

function resolveJump(target: number | string, at: number, labels: Map<string, number>): number {
  if (typeof target === 'number') return target;
  const index = labels.get(target);
  if (index === undefined) throw new Error(`seccomp filter: unknown label ${target}`);
  const offset = index - at - 1;
  // Classic BPF jumps are forward-only, 8 bits wide.
  if (offset < 0 || offset > 255) throw new Error(`seccomp filter: jump to ${target} out of range`);
  return offset;
}

/**
 * The filter for this machine's architecture as `struct sock_filter[]` bytes (8 each: u16 code,
 * u8 jt, u8 jf, u32 k, little-endian), or undefined on an architecture Yoke has no table for.
 */
export function unixSocketFilter(nodeArch: string = process.arch): Buffer | undefined {
  const arches = archRulesFor(nodeArch);
  if (!arches) return undefined;
  const { code, labels } = program(arches);
  const bytes = Buffer.alloc(code.length * 8);
  code.forEach((instruction, at) => {
    bytes.writeUInt16LE(instruction.code, at * 8);
    bytes.writeUInt8(resolveJump(instruction.jt, at, labels), at * 8 + 2);
    bytes.writeUInt8(resolveJump(instruction.jf, at, labels), at * 8 + 3);
    bytes.writeUInt32LE(instruction.k >>> 0, at * 8 + 4);
  });
  return bytes;
}
