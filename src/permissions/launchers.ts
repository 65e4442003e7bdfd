/**
 * Programs that run their operands as a command — in a new session, another root, another user,
 * under a lock or a tracer — and have no option table here. Which operand starts the command
 * depends on options each spells its own way, so for deny and ask rules every operand that could
 * be a command name is taken as one (`chroot / rm x` runs `rm x`; the rule also sees `/ rm x`,
 * which names nothing), and an operand that is a whole command line (`su -c 'rm x'`,
 * `script -c 'rm x'`) is read as shell source. Allow rules never look through them: the
 * launcher itself is what runs.
 *
 * Calibrated (util-linux 2.38, coreutils 9.1, as root in a scratch folder): each of
 * `setsid -w`, `chroot /`, `ionice -c 3`, `taskset 1`, `chrt -o 0`, `flock LOCK`, `unshare`,
 * `runuser -u root --`, `setarch x86_64`, `linux64` (`linux32` is the same program), `fakeroot`, `dbus-run-session --`,
 * `strace -o /dev/null` followed by `touch FILE`, `su -c`, `sg root -c`, `script -qc` with
 * `'touch FILE'`, `watch -n1 touch FILE` (in a terminal `script` made), and bash's
 * `coproc touch FILE` and `coproc NAME { touch FILE; }`, created FILE; so did BusyBox 1.35's
 * applets (`busybox touch FILE`), toybox 0.8.9's the same way (`toybox touch FILE`, `toybox nice touch
 * FILE`; Debian's build has no shell or awk applet, others may), and GNU parallel's command (`parallel touch ::: FILE`,
 * `parallel 'touch {}' ::: FILE`, `echo FILE | parallel touch`).
 */
import type { ShellWord } from '../services/bash-parser';

export const LAUNCHERS: ReadonlySet<string> = new Set([
  'setsid',
  'chroot',
  'ionice',
  'taskset',
  'chrt',
  'flock',
  'unshare',
  'runuser',
  'su',
  'sg',
  'script',
  'setarch',
  'linux32',
  'linux64',
  'fakeroot',
  'dbus-run-session',
  'strace',
  'watch',
  'busybox',
  'toybox',
  'parallel',
  // A bash keyword the parser reads as a command: `coproc rm x`, `coproc NAME { rm x; }`.
  'coproc',
]);

/** At most this many operands are tried as the start of the command a launcher runs. */
const MAX_STARTS = 8;

/** What a launcher's arguments may run: command lines starting at its operands, and code strings. */
export function launchedCommands(args: readonly ShellWord[]): { argvs: ShellWord[][]; code: string[] } {
  const argvs: ShellWord[][] = [];
  const code: string[] = [];
  for (const [i, word] of args.entries()) {
    if (argvs.length >= MAX_STARTS) break;
    if (word.value.startsWith('-')) continue;
    argvs.push(args.slice(i));
    if (!word.dynamic && /[\s;&|]/.test(word.value)) code.push(word.value);
  }
  return { argvs, code };
}
