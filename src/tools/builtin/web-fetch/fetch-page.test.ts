/**
 * The host policy against a real local server: every spelling of a loopback address is refused
 * before a connection is made, a DNS answer that turns private between check and connect
 * (rebinding) is refused at the connection, and allowed hosts still work.
 */
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LookupAll, ResolvedAddress } from './address-policy';
import { guardedLookup, guardSocket } from './connection-guard';
import { type FetchPageOptions, fetchPage } from './fetch-page';

let server: Server;
let port: number;
/** Connections the server accepted, and bytes it received on them. */
let connections: number;
let received: number;
let closed: Promise<void>[];

beforeAll(async () => {
  server = createServer((socket) => {
    connections++;
    closed.push(new Promise((resolve) => socket.on('close', () => resolve())));
    socket.on('data', (chunk) => {
      received += chunk.length;
      socket.end('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 6\r\n\r\nsecret');
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  connections = 0;
  received = 0;
  closed = [];
});

function options(extra: Partial<FetchPageOptions> = {}): FetchPageOptions {
  return {
    signal: new AbortController().signal,
    timeoutMs: 10_000,
    maxBytes: 1_000_000,
    maxRedirects: 3,
    allowPrivateHosts: [],
    ...extra,
  };
}

/** A resolver that gives each answer in turn (the last one repeats), counting the questions. */
function answers(...sequence: string[][]): LookupAll & { calls: number } {
  const lookup = Object.assign(
    async (): Promise<ResolvedAddress[]> => {
      const list = sequence[Math.min(lookup.calls, sequence.length - 1)] as string[];
      lookup.calls++;
      return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    },
    { calls: 0 },
  );
  return lookup;
}

describe('fetchPage refuses every spelling of a loopback address', () => {
  // Calibration: before the addresses were normalized, the first and third of these fetched
  // "secret" from this server (the check only knew the dotted `::ffff:a.b.c.d` spelling, and the
  // URL parser rewrites every IPv6 literal to compressed hex, `::ffff:7f00:1`).
  it.each([
    ['http://[::ffff:127.0.0.1]', /IPv4-mapped form of 127\.0\.0\.1, a loopback address/],
    ['http://[::ffff:7f00:1]', /IPv4-mapped form of 127\.0\.0\.1/],
    ['http://[0:0:0:0:0:ffff:7f00:1]', /IPv4-mapped form of 127\.0\.0\.1/],
    ['http://[::127.0.0.1]', /IPv4-compatible form of 127\.0\.0\.1/],
    ['http://[64:ff9b::127.0.0.1]', /NAT64 form of 127\.0\.0\.1/],
    ['http://[2002:7f00:1::]', /6to4 form of 127\.0\.0\.1/],
    // The WHATWG URL parser turns these IPv4 spellings into 127.0.0.1 before any check sees them.
    ['http://2130706433', /127\.0\.0\.1 is a loopback address/],
    ['http://0x7f.1', /127\.0\.0\.1 is a loopback address/],
    ['http://127.1', /127\.0\.0\.1 is a loopback address/],
    ['http://0177.0.0.1', /127\.0\.0\.1 is a loopback address/],
    ['http://0', /0\.0\.0\.0 is a "this network" address/],
  ])('%s', async (origin, message) => {
    await expect(fetchPage(new URL(`${origin}:${port}/`), options())).rejects.toThrow(message);
    expect(connections).toBe(0);
  });

  it('refuses a name whose answer turns private between the check and the connection (DNS rebinding)', async () => {
    const lookup = answers(['93.184.216.34'], ['127.0.0.1']);
    await expect(fetchPage(new URL(`http://rebind.example:${port}/`), options({ lookup }))).rejects.toThrow(
      /rebind\.example resolves to 127\.0\.0\.1, a loopback address/,
    );
    expect(lookup.calls).toBe(2);
    expect(connections).toBe(0);
  });

  it('refuses a name that resolves to the IPv4-mapped form of a private address', async () => {
    const lookup = answers(['::ffff:a00:5']);
    await expect(fetchPage(new URL('https://mapped.example/'), options({ lookup }))).rejects.toThrow(
      /resolves to ::ffff:a00:5, the IPv4-mapped form of 10\.0\.0\.5, a private network address/,
    );
  });

  it('still fetches from a host the user allowed, by address or by name', async () => {
    const byAddress = await fetchPage(
      new URL(`http://127.0.0.1:${port}/`),
      options({ allowPrivateHosts: [`127.0.0.1:${port}`] }),
    );
    expect(byAddress.kind === 'page' && byAddress.body.toString()).toBe('secret');
    const byName = await fetchPage(
      new URL(`http://dev.lan:${port}/`),
      options({ allowPrivateHosts: ['dev.lan'], lookup: answers(['127.0.0.1']) }),
    );
    expect(byName.kind === 'page' && byName.body.toString()).toBe('secret');
    expect(connections).toBe(2);
  });
});

describe('guardedLookup', () => {
  it('resolves again for every connection and checks each answer', async () => {
    const lookup = answers(['93.184.216.34'], ['192.168.1.10']);
    const guard = guardedLookup({ host: 'rebind.example', allowed: false, lookup });
    const ask = () =>
      new Promise<unknown>((resolve, reject) =>
        guard('rebind.example', { all: true }, (error, addresses) =>
          error ? reject(error) : resolve(addresses),
        ),
      );
    await expect(ask()).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
    await expect(ask()).rejects.toThrow(/resolves to 192\.168\.1\.10, a private network address/);
  });
});

describe('guardSocket', () => {
  it('drops a connection that reached a private address before anything is written', async () => {
    const socket: Socket = connect({ host: '127.0.0.1', port });
    guardSocket(socket, 'public.example');
    socket.write('GET / HTTP/1.1\r\nhost: public.example\r\n\r\n');
    const error = await new Promise<Error>((resolve) => socket.on('error', resolve));
    expect(error.message).toMatch(/public\.example connected to 127\.0\.0\.1, a loopback address/);
    // The server saw the TCP connection open and close, and not one byte of the request.
    while (closed.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await Promise.all(closed);
    expect(connections).toBe(1);
    expect(received).toBe(0);
  });
});
