/**
 * With `sandbox.network.allowUnixSockets`, commands must be able to create Unix sockets, so the
 * seccomp filter that refuses them cannot stay on. A filter that allows only the named paths
 * cannot be written: classic seccomp BPF sees the system call's register values, and connect()'s
 * address is a pointer into the caller's memory, which the filter cannot read (and which another
 * thread could change after any check). The narrower confinement used instead:
 * - every socket path the machine has bound (listed in /proc/net/unix), other than the allowed
 *   ones, is masked with /dev/null — so an ssh or gpg agent, docker or a D-Bus bus outside the
 *   private folders cannot be reached;
 * - /tmp, /run and /var/run stay private (the allowed sockets are bound into them);
 * - abstract sockets (`@name`, no path) belong to a network namespace, and the sandbox has its own.
 * A socket bound after the command started is not masked; it is named here so the gap is known.
 */
import { readFileSync } from 'node:fs';
import { isWithin } from '../permissions/path-rules';

/** Folders the sandbox mounts privately: sockets below them are not reachable anyway. */
const PRIVATE_FOLDERS = ['/tmp', '/run', '/var/run'];

/** The paths of the bound Unix sockets in a /proc/net/unix listing (after the 7th column). */
export function boundSocketPaths(listing: string): string[] {
  const paths = new Set<string>();
  for (const line of listing.split('\n').slice(1)) {
    const path = /^\s*(?:\S+\s+){7}(\/.*)$/.exec(line)?.[1];
    if (path) paths.add(path);
  }
  return [...paths];
}

/**
 * The sockets to mask inside a sandbox that allows `allowed`; `boundBack` are the folders shown
 * again over the private ones (the writable folders of a project under /tmp).
 */
export function socketsToMask(
  allowed: readonly string[],
  boundBack: readonly string[],
  listing?: string,
): string[] {
  let text = listing;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/net/unix', 'utf8');
    } catch {
      return [];
    }
  }
  const hidden = (path: string) =>
    PRIVATE_FOLDERS.some((folder) => isWithin(path, folder)) &&
    !boundBack.some((folder) => isWithin(path, folder));
  return boundSocketPaths(text).filter((path) => !allowed.includes(path) && !hidden(path));
}
