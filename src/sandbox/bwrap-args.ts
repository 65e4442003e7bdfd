/**
 * The bubblewrap command line for one sandboxed command, from the session's policy and what
 * exists on disk right now. Order matters: later mounts cover earlier ones, so the picture is
 * built from the outside in — the whole file system read-only, private /tmp and /run, the
 * writable folders, then the read-only islands inside them, then the masks, then what is
 * readable again inside a mask.
 */
import { accessSync, constants, lstatSync } from 'node:fs';
import { dirname } from 'node:path';
import { isWithin } from '../permissions/path-rules';
import type { MaskResult } from './deny-masks';
import type { SandboxPolicy } from './policy';

/** The file descriptor the seccomp program is handed to bwrap on. */
export const SECCOMP_FD = 3;

export type BwrapPlan = {
  args: string[];
  /**
   * Empty files bwrap creates on the host as mount points for protected paths that did not exist
   * (bwrap must mount onto something); removed again once no sandboxed command is running.
   */
  createdMountPoints: string[];
};

export type BwrapPlanOptions = {
  cwd: string;
  /** Files outside the writable folders this command must write (the shell's cwd report). */
  extraWritableFiles: readonly string[];
  /**
   * Folders the command must read although a private tmpfs covers them (a language server
   * installed under /tmp): bound read-only over the tmpfs, before the writable folders.
   */
  extraReadable?: readonly string[];
  /** Install the AF_UNIX seccomp filter read from SECCOMP_FD. */
  seccomp: boolean;
  env: Readonly<Record<string, string>>;
  /** Yoke runs as uid 0. */
  asRoot: boolean;
};

type Existing = 'dir' | 'file' | 'link' | undefined;

function existing(path: string): Existing {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return 'link';
    return stat.isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}

/**
 * Where to stop a protected path that does not exist from being created: its first missing
 * component (`.git` when there is no `.git` at all), or an existing ancestor that is a file
 * (a `.git` file pointing elsewhere) which is then bound read-only itself.
 */
function blockingPoint(path: string): { path: string; exists: boolean } {
  let current = path;
  let missing = path;
  while (current !== dirname(current)) {
    const kind = existing(current);
    if (kind === 'dir') return { path: missing, exists: false };
    if (kind !== undefined) return { path: current, exists: true };
    missing = current;
    current = dirname(current);
  }
  return { path: missing, exists: false };
}

function canCreateIn(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

export function bwrapPlan(policy: SandboxPolicy, masks: MaskResult, options: BwrapPlanOptions): BwrapPlan {
  // Every namespace but cgroup's (which only hides cgroup paths and costs start-up time). A user
  // namespace is what lets an ordinary user mount; root needs none (bwrap then drops every
  // capability and sets no_new_privs itself), and skipping it saves ~5 ms a command.
  const args = [
    '--die-with-parent',
    '--new-session',
    ...(options.asRoot ? [] : ['--unshare-user-try']),
    '--unshare-pid',
    '--unshare-net',
    '--unshare-ipc',
    '--unshare-uts',
  ];
  const createdMountPoints: string[] = [];
  const bind = (flag: string, from: string, to = from) => args.push(flag, from, to);

  bind('--ro-bind', '/');
  args.push('--dev', '/dev', '--proc', '/proc');
  // /var/run is normally a link to /run; mounting over a link would mount over its target.
  for (const dir of ['/tmp', '/run', '/var/run']) if (existing(dir) === 'dir') args.push('--tmpfs', dir);
  for (const path of options.extraReadable ?? []) if (existing(path) === 'dir') bind('--ro-bind', path);
  for (const socket of policy.unixSockets) if (existing(socket)) bind('--bind', socket);

  // Parents before children, so a nested writable folder is not hidden by its parent's mount.
  const writable = [...policy.writable].sort((a, b) => a.path.length - b.path.length);
  for (const { path } of writable) if (existing(path) === 'dir') bind('--bind', path);
  for (const file of options.extraWritableFiles) bind('--bind', file);

  const blocked = new Set<string>();
  for (const { path } of policy.readOnly) {
    const kind = existing(path);
    if (kind === 'dir' || kind === 'file') {
      bind('--ro-bind', path);
      continue;
    }
    if (kind === 'link') continue; // its target is protected under its own name (policy.ts)
    const point = blockingPoint(path);
    if (blocked.has(point.path)) continue;
    if (!policy.writable.some((root) => isWithin(point.path, root.path) && point.path !== root.path))
      continue;
    blocked.add(point.path);
    if (point.exists) bind('--ro-bind', point.path);
    // A folder this user cannot write to cannot get the file planted either (inside, the user is
    // the same); bwrap could not make the mount point there anyway.
    else if (!canCreateIn(dirname(point.path))) continue;
    else {
      bind('--ro-bind', '/dev/null', point.path);
      createdMountPoints.push(point.path);
    }
  }

  for (const { path, kind } of masks.paths) {
    if (kind === 'dir') args.push('--tmpfs', path, '--remount-ro', path);
    else bind('--ro-bind', '/dev/null', path);
  }
  for (const path of policy.readableAgain) {
    if (masks.paths.some((mask) => isWithin(path, mask.path)) && existing(path)) bind('--ro-bind', path);
  }

  for (const [key, value] of Object.entries(options.env)) args.push('--setenv', key, value);
  args.push('--chdir', options.cwd);
  if (options.seccomp) args.push('--seccomp', String(SECCOMP_FD));
  return { args, createdMountPoints };
}
