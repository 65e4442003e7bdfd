/**
 * Turns what a sandboxed command printed when the sandbox stopped it into readable lines. Linux
 * has no denial log for mounts: the refusal a program prints is the sandbox's own output —
 * "Read-only file system" (EROFS) for a write outside the writable folders or onto a protected
 * file, EPERM from `socket(AF_UNIX)` for the seccomp filter, "Network is unreachable" or a
 * resolver failure for the empty network namespace — and the filtering proxy records the hosts it
 * refused. Each line names the path or host, why, and what the model can do instead.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isWithin } from '../permissions/path-rules';
import type { PolicyPath, SandboxPolicy } from './policy';
import type { ProxyDenial } from './proxy';

const READ_ONLY = /Read-only file system/;
/** A quoted or bare absolute/relative path right before the colon of an error message. */
const PATH_BEFORE_ERROR =
  /(?:[‘'`"]([^‘’'`"\n]+)[’'`"]|(\S+?)):\s*(?:cannot \w+[^:]*:\s*)?Read-only file system/;
const NOT_FOUND =
  /(?:[‘'`"]([^‘’'`"\n]+)[’'`"]|(\/\S+?)):\s*(?:cannot \w+[^:]*:\s*)?No such file or directory/;
/** `bash: x: Is a directory`, `sh: 1: cannot create x: Is a directory`, `Is a directory: 'x'`. */
const IS_A_DIRECTORY =
  /(?:cannot \w+ [‘'`"]?([^‘’'`":\n]+)[’'`"]?|[‘'`"]([^‘’'`"\n]+)[’'`"]|(\S+?)):\s*Is a directory|Is a directory: [‘'`"]([^‘’'`"\n]+)/;
/** Private inside the sandbox: a host path below them is not there unless bound in. */
const PRIVATE_DIRS = ['/tmp', '/run', '/var/run'];
const UNIX_SOCKET =
  /(socket\(1,|AF_UNIX|AF=1|Unix socket|unix socket|\.sock\b)[^\n]*(Operation not permitted|Permission denied)|(Operation not permitted)[^\n]*\.sock\b/i;
/** `mv: cannot move '.git' to 'x': Device or resource busy`: a mount point (a protected path or a pin). */
const BUSY =
  /cannot (?:move|remove) [‘'`"]?([^‘’'`"\n]+?)[’'`"]?(?: to [^:\n]+)?: Device or resource busy|[‘'`"]([^‘’'`"\n]+)[’'`"]: Device or resource busy/;
/** A connect to a socket path that is masked (only with allowUnixSockets: /dev/null refuses it). */
const MASKED_SOCKET = /AF=1 "([^"\n]+)"[^\n]*Connection refused|([^\s'"]+\.sock)\b[^\n]*Connection refused/;
const NO_NETWORK =
  /Network is unreachable|Could not resolve host|Temporary failure in name resolution|getaddrinfo (EAI_AGAIN|ENOTFOUND)|Name or service not known/;

export type ViolationContext = {
  cwd: string;
  policy: SandboxPolicy;
  /** The read-only paths of this command: the policy's and those found for it (git-protection.ts). */
  protectedPaths?: readonly PolicyPath[];
  denials: readonly ProxyDenial[];
};

const HOW_TO_PROCEED =
  'If the user should decide, ask them, or run the command again with dangerouslyDisableSandbox: true, which asks for their permission.';

function explainWrite(path: string, context: ViolationContext): string {
  const { policy } = context;
  const protectedEntry = (context.protectedPaths ?? policy.readOnly).find((entry) =>
    isWithin(path, entry.path),
  );
  if (protectedEntry)
    return `write to ${path} blocked by the sandbox: it stays read-only because ${protectedEntry.why}`;
  if (!policy.writable.some((root) => isWithin(path, root.path)))
    return `write to ${path} blocked by the sandbox: outside the writable paths (${policy.writable.map((root) => root.path).join(', ')})`;
  return `write to ${path} blocked by the sandbox: the path is read-only inside the sandbox`;
}

/** One line per distinct violation found in the output, for the tool result. */
export function explainViolations(output: string, context: ViolationContext): string[] {
  const lines: string[] = [];
  const add = (line: string) => {
    if (!lines.includes(line)) lines.push(line);
  };
  for (const text of output.split('\n')) {
    if (READ_ONLY.test(text)) {
      const match = PATH_BEFORE_ERROR.exec(text);
      const named = match?.[1] ?? match?.[2]?.replace(/^.*?:\s*/, '');
      if (named && !/^(bash|sh|touch|mkdir|cp|mv|rm|tee)$/.test(named))
        add(explainWrite(resolve(context.cwd, named), context));
      else add('a write was blocked by the sandbox: the target is outside the writable paths or protected');
    } else if (IS_A_DIRECTORY.test(text)) {
      // A protected file that did not exist is an empty read-only folder inside (bwrap-args.ts).
      const match = IS_A_DIRECTORY.exec(text);
      const path = resolve(context.cwd, match?.[1] ?? match?.[2] ?? match?.[3] ?? match?.[4] ?? '.');
      if ((context.protectedPaths ?? context.policy.readOnly).some((entry) => isWithin(path, entry.path)))
        add(explainWrite(path, context));
    } else if (NOT_FOUND.test(text)) {
      const match = NOT_FOUND.exec(text);
      const path = resolve(context.cwd, match?.[1] ?? match?.[2] ?? '.');
      const inPrivate = PRIVATE_DIRS.find((dir) => isWithin(path, dir));
      if (
        inPrivate &&
        !context.policy.writable.some((root) => isWithin(path, root.path)) &&
        existsSync(dirname(path))
      )
        add(
          `${path} is not reachable in the sandbox: ${inPrivate} is private inside it, and the path is outside the writable paths`,
        );
    } else if (BUSY.test(text)) {
      const match = BUSY.exec(text);
      const path = resolve(context.cwd, match?.[1] ?? match?.[2] ?? '.');
      const entries = context.protectedPaths ?? context.policy.readOnly;
      const held = entries.find((entry) => isWithin(path, entry.path) || isWithin(entry.path, path));
      if (held)
        add(
          `moving or removing ${path} blocked by the sandbox: ${held.path === path ? 'it' : held.path} stays read-only because ${held.why}`,
        );
    } else if (context.policy.unixSockets.length > 0 && MASKED_SOCKET.test(text)) {
      const match = MASKED_SOCKET.exec(text);
      const path = match?.[1] ?? match?.[2] ?? 'a Unix socket';
      if (!context.policy.unixSockets.includes(path))
        add(
          `connecting to ${path} blocked by the sandbox: only the sockets in sandbox.network.allowUnixSockets are reachable (${context.policy.unixSockets.join(', ')})`,
        );
    } else if (UNIX_SOCKET.test(text)) {
      add(
        'connecting to a Unix socket blocked by the sandbox: creating Unix sockets is not allowed inside (sandbox.network.allowUnixSockets names sockets that may be used)',
      );
    } else if (NO_NETWORK.test(text) && context.policy.network.kind === 'none') {
      add(
        'network access blocked by the sandbox: commands have no network (sandbox.network.allowedDomains lets named hosts through)',
      );
    }
  }
  for (const denial of context.denials)
    add(`connection to ${denial.host}:${denial.port} blocked by the sandbox: ${denial.why}`);
  if (lines.length > 0) lines.push(HOW_TO_PROCEED);
  return lines;
}
