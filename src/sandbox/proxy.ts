/**
 * The filtering proxy a sandboxed command reaches the network through. It listens on a Unix socket
 * (bridged into the sandbox's empty network namespace by a relay, bwrap-command.ts) and speaks both
 * HTTP (CONNECT tunnels and plain absolute-URI requests) and SOCKS5 (CONNECT), telling them apart
 * by the first byte. A host gets through only when `sandbox.network.allowedDomains` names it, with
 * the `WebFetch(domain:…)` rule semantics (`example.com` covers its subdomains, `*.example.com`
 * only them), and no `deniedDomains` entry does. Every refusal is recorded so the Bash tool can
 * say which host was blocked instead of a bare "connection refused".
 */
import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { domainMatches } from '../permissions/tool-rules';

export type ProxyDenial = { host: string; port: number; why: string; at: number };

export type HostPolicy = { allowedDomains: readonly string[]; deniedDomains: readonly string[] };

const matchesAny = (host: string, domains: readonly string[]) =>
  domains.some((domain) => domainMatches(`domain:${domain}`, host));

/** Why `host` may not be reached, or undefined when it may. */
export function hostRefusal(host: string, policy: HostPolicy): string | undefined {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (matchesAny(name, policy.deniedDomains)) return `${name} is in sandbox.network.deniedDomains`;
  if (!matchesAny(name, policy.allowedDomains)) return `${name} is not in sandbox.network.allowedDomains`;
  return undefined;
}

const MAX_HEADER_BYTES = 64 * 1024;

export class FilteringProxy {
  readonly denials: ProxyDenial[] = [];
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly policy: HostPolicy) {
    this.server = createServer((client) => this.accept(client));
  }

  async listen(socketPath: string): Promise<void> {
    this.server.listen(socketPath);
    await once(this.server, 'listening');
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    if (!this.server.listening) return;
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  private accept(client: Socket): void {
    this.track(client);
    let buffered = Buffer.alloc(0);
    const socks = { greeted: false };
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const handled = buffered[0] === 5 ? this.socks(client, buffered, socks) : this.http(client, buffered);
      if (handled) client.off('data', onData);
      else if (buffered.length > MAX_HEADER_BYTES) client.destroy();
    };
    client.on('data', onData);
  }

  /** Admits or refuses `host:port`; on admission opens the upstream connection. */
  private open(
    host: string,
    port: number,
    onReady: (upstream: Socket) => void,
    onRefused: (why: string) => void,
  ) {
    const why = hostRefusal(host, this.policy);
    if (why) {
      this.denials.push({ host, port, why, at: Date.now() });
      onRefused(why);
      return;
    }
    const upstream = createConnection({ host, port });
    this.track(upstream);
    upstream.once('connect', () => onReady(upstream));
    upstream.once('error', (error) => onRefused(`${host}:${port} could not be reached: ${error.message}`));
  }

  /** HTTP: CONNECT, or a request with an absolute URI. False while the header is incomplete. */
  private http(client: Socket, buffered: Buffer): boolean {
    const end = buffered.indexOf('\r\n\r\n');
    if (end < 0) return false;
    const head = buffered.subarray(0, end).toString('latin1');
    const rest = buffered.subarray(end + 4);
    const [requestLine = '', ...headers] = head.split('\r\n');
    const [method = '', target = '', version = 'HTTP/1.1'] = requestLine.split(' ');
    const refuse = (status: string, why: string) => {
      const body = `Blocked by the Yoke sandbox: ${why}\n`;
      client.end(
        `HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    };
    if (method === 'CONNECT') {
      const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(target);
      if (!match) {
        refuse('400 Bad Request', `cannot read the CONNECT target ${target}`);
        return true;
      }
      this.open(
        (match[1] as string).replace(/^\[|\]$/g, ''),
        Number(match[2]),
        (upstream) => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (rest.length > 0) upstream.write(rest);
          client.pipe(upstream).pipe(client);
        },
        (why) => refuse('403 Forbidden', why),
      );
      return true;
    }
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      refuse('400 Bad Request', 'only absolute http:// requests and CONNECT go through the sandbox proxy');
      return true;
    }
    if (url.protocol !== 'http:') {
      refuse('400 Bad Request', `${url.protocol} is not proxied; use CONNECT`);
      return true;
    }
    this.open(
      url.hostname,
      Number(url.port || 80),
      (upstream) => {
        // One request per connection: a kept-alive connection could carry the next request to
        // another host past the check.
        const kept = headers.filter((h) => !/^(proxy-connection|connection|keep-alive):/i.test(h));
        upstream.write(
          `${method} ${url.pathname}${url.search} ${version}\r\n${[...kept, 'Connection: close'].join('\r\n')}\r\n\r\n`,
        );
        if (rest.length > 0) upstream.write(rest);
        client.pipe(upstream).pipe(client);
      },
      (why) => refuse('403 Forbidden', why),
    );
    return true;
  }

  /** SOCKS5 without authentication, CONNECT only. False while the request is incomplete. */
  private socks(client: Socket, buffered: Buffer, state: { greeted: boolean }): boolean {
    const methods = buffered[1] ?? 0;
    const greeting = 2 + methods;
    if (buffered.length < greeting) return false;
    const request = buffered.subarray(greeting);
    if (request.length === 0) {
      // Answer the greeting once, then wait for the request.
      if (!state.greeted) client.write(Buffer.from([5, 0]));
      state.greeted = true;
      return false;
    }
    if (!state.greeted) {
      client.write(Buffer.from([5, 0]));
      state.greeted = true;
    }
    if (request.length < 5) return false;
    const reply = (code: number) => Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]);
    const [, command, , addressType] = request;
    let host: string;
    let portAt: number;
    if (addressType === 1) {
      if (request.length < 10) return false;
      host = [...request.subarray(4, 8)].join('.');
      portAt = 8;
    } else if (addressType === 3) {
      const length = request[4] as number;
      if (request.length < 7 + length) return false;
      host = request.subarray(5, 5 + length).toString('latin1');
      portAt = 5 + length;
    } else if (addressType === 4) {
      if (request.length < 22) return false;
      const hex = request.subarray(4, 20).toString('hex');
      host = hex.match(/.{4}/g)?.join(':') ?? hex;
      portAt = 20;
    } else {
      client.end(reply(8));
      return true;
    }
    if (command !== 1) {
      client.end(reply(7));
      return true;
    }
    const port = request.readUInt16BE(portAt);
    const rest = request.subarray(portAt + 2);
    this.open(
      host,
      port,
      (upstream) => {
        client.write(reply(0));
        if (rest.length > 0) upstream.write(rest);
        client.pipe(upstream).pipe(client);
      },
      () => client.end(reply(2)),
    );
    return true;
  }
}
