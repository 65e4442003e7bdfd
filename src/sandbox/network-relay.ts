/**
 * How a sandboxed command reaches the filtering proxy from its empty network namespace: a socat
 * relay inside the sandbox listens on one loopback port and forwards each connection to the
 * proxy's Unix socket (bound in). The proxy tells HTTP from SOCKS5 by the first byte, so one port
 * serves both proxy variables. The relay itself needs Unix sockets and the command must not have
 * them, so the command runs under a nested bwrap that adds only the seccomp filter.
 */

/** The port the relay listens on inside the sandbox's own network namespace. */
export const PROXY_PORT = 3128;

/** `/proc/net/tcp` writes a listening socket as `0100007F:0C38 00000000:0000 0A` (port in hex). */
const LISTENING = `:${PROXY_PORT.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 0A`;

/**
 * Runs inside the sandbox before the command: the relay, a wait until it listens (read from the
 * namespace's own /proc/net/tcp with shell built-ins only — a `grep` per look started a process
 * each time round), then the command. `$1` is the proxy's socket, the rest the command line.
 */
const RELAY_SCRIPT = [
  `socat TCP-LISTEN:${PROXY_PORT},bind=127.0.0.1,reuseaddr,fork UNIX-CONNECT:"$1" 2>/dev/null &`,
  'listening() { while IFS= read -r line; do case $line in',
  `  *'${LISTENING}'*) return 0 ;;`,
  'esac; done < /proc/net/tcp; return 1; }',
  'until listening; do :; done',
  'shift',
  'exec "$@"',
].join('\n');

/** The proxy variables curl, git, pip, npm and most HTTP clients honour. */
export function proxyEnvironment(): Record<string, string> {
  const http = `http://127.0.0.1:${PROXY_PORT}`;
  const socks = `socks5h://127.0.0.1:${PROXY_PORT}`;
  return {
    HTTP_PROXY: http,
    HTTPS_PROXY: http,
    http_proxy: http,
    https_proxy: http,
    ALL_PROXY: socks,
    all_proxy: socks,
    NO_PROXY: '',
    no_proxy: '',
  };
}

/** What follows bwrap's own options: the relay, then the command under the filter-only bwrap. */
export function relayedCommand(
  socketPath: string,
  command: readonly string[],
  seccompFd: number | undefined,
): string[] {
  return [
    '/bin/sh',
    '-c',
    RELAY_SCRIPT,
    'yoke-relay',
    socketPath,
    'bwrap',
    '--dev-bind',
    '/',
    '/',
    '--die-with-parent',
    ...(seccompFd === undefined ? [] : ['--seccomp', String(seccompFd)]),
    '--',
    ...command,
  ];
}
