/**
 * The same policy as a macOS `sandbox-exec` profile (SBPL), for `sandbox-exec -p <profile> bash
 * -c …`. Written from Apple's profile language and reviewed against the Linux policy line by line;
 * it is UNTESTED on a Mac (none is available where Yoke is built) and Yoke does not run it yet:
 * on macOS the sandbox reports itself unavailable (availability.ts). The profile:
 * - allows everything but writes and the network, then allows writes below the writable folders
 *   and denies them again on the protected paths (later rules win in SBPL);
 * - denies reading the masked secrets (globs become regexes);
 * - allows no network but the proxy's port on loopback when hosts are allowed, and no Unix socket
 *   but the allowed ones.
 */
import { globToRegExp, type ResolvedPattern } from '../permissions/path-rules';
import type { SandboxPolicy } from './policy';

/** An SBPL string literal. */
const quoted = (text: string) => `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

/** A resolved deny pattern as an SBPL filter: a subpath for a literal, a regex for a glob. */
function patternFilter(pattern: ResolvedPattern): string {
  if (pattern.anchored && pattern.pattern === '**') return `(subpath ${quoted(pattern.base)})`;
  // SBPL regexes are POSIX-style: no `(?:` groups, and `/` needs no escape.
  const relative = globToRegExp(pattern.pattern, pattern.anchored)
    .source.replace(/^\^/, '')
    .replaceAll('(?:', '(')
    .replaceAll('\\/', '/');
  const base = pattern.base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // The pattern also covers everything below a match, like the Linux mask of a folder.
  return `(regex ${quoted(`^${base}/${relative.replace(/\$$/, '')}(/.*)?$`)})`;
}

export function macosProfile(policy: SandboxPolicy, proxyPort?: number): string {
  const lines = ['(version 1)', '(allow default)', '', ';; Writes: only below the writable folders.'];
  lines.push('(deny file-write*)');
  lines.push(
    `(allow file-write* ${policy.writable.map((root) => `(subpath ${quoted(root.path)})`).join(' ')})`,
  );
  lines.push('(allow file-write* (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))');
  if (policy.readOnly.length > 0) {
    lines.push('', ';; Protected files stay read-only, existing or not.');
    for (const entry of policy.readOnly)
      lines.push(`(deny file-write* (subpath ${quoted(entry.path)})) ; ${entry.why}`);
  }
  if (policy.hidden.length > 0) {
    lines.push('', ';; Secrets the deny rules name are unreadable.');
    for (const pattern of policy.hidden)
      lines.push(`(deny file-read* ${patternFilter(pattern)}) ; ${pattern.why}`);
    for (const path of policy.readableAgain) lines.push(`(allow file-read* (subpath ${quoted(path)}))`);
  }
  lines.push('', ';; Network: none, but the filtering proxy on loopback when hosts are allowed.');
  lines.push('(deny network*)');
  if (proxyPort !== undefined) lines.push(`(allow network-outbound (remote tcp "localhost:${proxyPort}"))`);
  for (const socket of policy.unixSockets)
    lines.push(`(allow network-outbound (remote unix-socket (path-literal ${quoted(socket)})))`);
  return `${lines.join('\n')}\n`;
}
