/**
 * Whether the sandbox can start on this machine, and if not, the most likely reason in words a
 * user can act on. The probe runs bubblewrap the way a command will (new namespaces of every kind,
 * /proc and /dev), because each of those can be refused separately (a container without
 * CAP_SYS_ADMIN mounts no /proc; an AppArmor policy refuses the user namespace).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { unixSocketFilter } from './seccomp';

export type SandboxAvailability = { available: true; socat: boolean } | { available: false; reason: string };

type ProbeResult = { code: number | null; stderr: string; missing: boolean };

function run(file: string, args: readonly string[]): Promise<ProbeResult> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10_000 }, (error, _stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({
        code,
        stderr: String(stderr).trim(),
        missing: (error as NodeJS.ErrnoException)?.code === 'ENOENT',
      });
    });
  });
}

function sysctl(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The likeliest reason bubblewrap could not create its namespaces, from the kernel's switches. */
export function namespaceCause(stderr: string): string {
  if (sysctl('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1')
    return 'an AppArmor policy blocks unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1; an AppArmor profile for bwrap or setting it to 0 allows them)';
  if (sysctl('/proc/sys/kernel/unprivileged_userns_clone') === '0')
    return 'unprivileged user namespaces are switched off (kernel.unprivileged_userns_clone=0)';
  if (sysctl('/proc/sys/user/max_user_namespaces') === '0')
    return 'user namespaces are switched off (user.max_user_namespaces=0)';
  return `bubblewrap could not create its namespaces — inside a container this needs a seccomp profile that allows unshare (bwrap said: ${stderr || 'nothing'})`;
}

export async function probeSandbox(
  platform: NodeJS.Platform = process.platform,
): Promise<SandboxAvailability> {
  if (platform !== 'linux')
    return { available: false, reason: `Yoke's sandbox runs on Linux (bubblewrap); this is ${platform}` };
  // Without the filter a Unix socket (docker, ssh-agent) would be a way out of "no network".
  if (!unixSocketFilter())
    return { available: false, reason: `Yoke has no seccomp table for the ${process.arch} architecture` };
  const probe = await run('bwrap', [
    '--die-with-parent',
    '--unshare-all',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--',
    'true',
  ]);
  if (probe.missing)
    return {
      available: false,
      reason: 'bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)',
    };
  if (probe.code !== 0) return { available: false, reason: namespaceCause(probe.stderr) };
  const socat = !(await run('socat', ['-V'])).missing;
  return { available: true, socat };
}
