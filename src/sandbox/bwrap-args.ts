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
import type { ReadOnlyPath, SandboxPolicy } from './policy';
import { socketsToMask } from './unix-sockets';

/** The file descriptor the seccomp program is handed to bwrap on. */
export const SECCOMP_FD = 3;

/**
 * A mount point made for a protected path that did not exist (bwrap must mount onto something),
 * removed again once no sandboxed command is running:
 * - `dir`: an empty folder bwrap creates, with the session's read-only empty folder bound over it
 *   (git ignores empty folders, so `git status` outside does not list it; whatever reads it finds
 *   nothing configured);
 * - `file`: a file Yoke writes with `content` before the command, bound read-only onto itself.
 */
export type Placeholder = { kind: 'dir'; path: string } | { kind: 'file'; path: string; content: string };

export type BwrapPlan = {
  args: string[];
  placeholders: Placeholder[];
};

export type BwrapPlanOptions = {
  cwd: string;
  /** Files outside the writable folders this command must write. */
  extraWritableFiles: readonly string[];
  /**
   * Folders the command must read although a private tmpfs covers them (a language server
   * installed under /tmp): bound read-only over the tmpfs, before the writable folders.
   */
  extraReadable?: readonly string[];
  /** Read-only paths found per command (a hooks folder a repository's config names). */
  extraReadOnly?: readonly ReadOnlyPath[];
  /**
   * Folders inside a read-only entry that this command may write again (an agent's worktree
   * below `.yoke/worktrees`): bound after the read-only entries that hold them and before the
   * read-only entries inside them, which stay read-only.
   */
  writableIslands?: readonly string[];
  /** Whether the repository whose git folder this is reads `config.worktree`. */
  readsWorktreeConfig?: (gitDir: string) => boolean;
  /** An empty folder outside the writable ones, bound read-only over missing protected paths. */
  emptyDir: string;
  /** /proc/net/unix as read for this command (tests give their own). */
  socketListing?: string;
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

/** A mount onto an existing path (`source` itself unless given) or a placeholder to make first. */
type Protection = { target: string; source?: string; placeholder?: Placeholder };

/** How one read-only entry is kept read-only right now, or undefined when nothing needs doing. */
function protectionFor(
  entry: ReadOnlyPath,
  policy: SandboxPolicy,
  options: BwrapPlanOptions,
): Protection | undefined {
  const kind = existing(entry.path);
  if (kind === 'dir' || kind === 'file') return { target: entry.path };
  if (kind === 'link') return undefined; // its target is protected under its own name (policy.ts)
  const point = blockingPoint(entry.path);
  if (!policy.writable.some((root) => isWithin(point.path, root.path) && point.path !== root.path))
    return undefined;
  if (point.exists) return { target: point.path };
  // A folder this user cannot write to cannot get the file planted either (inside, the user is
  // the same); bwrap could not make the mount point there anyway.
  if (!canCreateIn(dirname(point.path))) return undefined;
  // The entry's own rule applies when only its last component is missing; a missing parent
  // (no `.git` at all) is blocked as a folder, whatever the entry is.
  const whenMissing = point.path === entry.path ? entry.whenMissing : 'block';
  if (whenMissing === 'nothing') return undefined;
  if (whenMissing === 'if-worktree-config' && !options.readsWorktreeConfig?.(dirname(entry.path)))
    return undefined;
  if (whenMissing === 'self-commondir')
    return { target: point.path, placeholder: { kind: 'file', path: point.path, content: '.\n' } };
  if (whenMissing === 'if-worktree-config' || whenMissing === 'empty-file')
    return { target: point.path, placeholder: { kind: 'file', path: point.path, content: '' } };
  return { target: point.path, source: options.emptyDir, placeholder: { kind: 'dir', path: point.path } };
}

/**
 * The existing folders between a writable root and a protected path, bound onto themselves: a
 * mount point cannot be renamed or removed, so `mv .git .git2` followed by a planted `.git` file
 * (which would send git to a config the command wrote) fails with "Device or resource busy".
 */
function pinsFor(targets: readonly string[], policy: SandboxPolicy, islands: readonly string[]): string[] {
  const pins = new Set<string>();
  // An island is the root of what lies in it: a pin above it would make the read-only entry that
  // holds it (the project's `.yoke`) writable again.
  const roots = [...policy.writable.map((root) => root.path), ...islands];
  for (const target of targets) {
    const root = roots.filter((path) => isWithin(target, path)).sort((a, b) => b.length - a.length)[0];
    if (!root) continue;
    for (let dir = dirname(target); dir !== root && isWithin(dir, root); dir = dirname(dir)) {
      if (roots.includes(dir) || targets.some((other) => isWithin(dir, other))) continue;
      if (existing(dir) === 'dir') pins.add(dir);
    }
  }
  return [...pins].sort((a, b) => a.length - b.length);
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
  for (const file of options.extraWritableFiles)
    if (!policy.writable.some((root) => isWithin(file, root.path))) bind('--bind', file);

  const protections: Protection[] = [];
  for (const entry of [...policy.readOnly, ...(options.extraReadOnly ?? [])]) {
    const protection = protectionFor(entry, policy, options);
    if (protection && !protections.some((other) => other.target === protection.target))
      protections.push(protection);
  }
  // Read-only entries inside a writable island are bound after it, or the island would cover them.
  const islands = options.writableIslands ?? [];
  const inIsland = (protection: Protection) => islands.some((island) => isWithin(protection.target, island));
  const placeholders: Placeholder[] = [];
  const protect = (chosen: readonly Protection[]) => {
    for (const pin of pinsFor(
      chosen.map((protection) => protection.target),
      policy,
      islands,
    ))
      bind('--bind', pin);
    for (const { target, source, placeholder } of chosen) {
      bind('--ro-bind', source ?? target, target);
      if (placeholder) placeholders.push(placeholder);
    }
  };
  protect(protections.filter((protection) => !inIsland(protection)));
  for (const island of islands) if (existing(island) === 'dir') bind('--bind', island);
  protect(protections.filter(inIsland));

  // Only when sockets are allowed: otherwise no socket can be created at all (seccomp).
  if (policy.unixSockets.length > 0)
    for (const socket of socketsToMask(
      policy.unixSockets,
      [...policy.writable.map((root) => root.path), ...(options.extraReadable ?? [])],
      options.socketListing,
    ))
      if (existing(socket) === 'file') bind('--ro-bind', '/dev/null', socket);
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
  return { args, placeholders };
}
