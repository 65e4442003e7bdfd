/**
 * `preconnect` against real sockets: the first request goes out on the connection opened before
 * it; a prepared connection that failed, or that the server closed while it waited, never costs
 * the request anything but its own attempt.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeFetch } from './node-fetch';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

type Log = { connections: number; requests: Array<{ connection: number; connectedBeforeFetch: boolean }> };

async function server(
  answer: (req: IncomingMessage, res: ServerResponse, connection: number) => void = (_req, res) =>
    res.end('ok'),
): Promise<{ url: URL; log: Log; fetchCalled(): void }> {
  const log: Log = { connections: 0, requests: [] };
  let fetchCalledAt = Number.POSITIVE_INFINITY;
  const connectedAt = new Map<Socket, { n: number; order: number }>();
  let order = 0;
  const s = createServer((req, res) => {
    const info = connectedAt.get(req.socket);
    log.requests.push({ connection: info?.n ?? 0, connectedBeforeFetch: (info?.order ?? 0) < fetchCalledAt });
    answer(req, res, info?.n ?? 0);
  });
  s.on('connection', (socket: Socket) => {
    log.connections += 1;
    connectedAt.set(socket, { n: log.connections, order: order++ });
  });
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const address = s.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    url: new URL(`http://127.0.0.1:${address.port}/v1`),
    log,
    fetchCalled: () => (fetchCalledAt = order++),
  };
}

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
};

describe('preconnect', () => {
  it('opens the connection first, and the first request goes out on it', async () => {
    const { url, log, fetchCalled } = await server();
    const fetch = createNodeFetch({ connectMs: 5_000 });
    fetch.preconnect(url);
    await until(() => log.connections === 1);
    fetchCalled();
    const response = await fetch(`${url.href}/messages`, { method: 'POST', body: '{}' });
    expect(await response.text()).toBe('ok');
    expect(log.requests).toEqual([{ connection: 1, connectedBeforeFetch: true }]);
    expect(log.connections).toBe(1);
  });

  it('opens no second connection while one is prepared or kept alive', async () => {
    const { url, log } = await server();
    const fetch = createNodeFetch({ connectMs: 5_000 });
    fetch.preconnect(url);
    fetch.preconnect(url);
    await until(() => log.connections === 1);
    await (await fetch(url, { method: 'POST', body: '{}' })).text();
    fetch.preconnect(url);
    await (await fetch(url, { method: 'POST', body: '{}' })).text();
    expect(log.connections).toBe(1);
    expect(log.requests.map((r) => r.connection)).toEqual([1, 1]);
  });

  it('leaves a refused connection for the request to report, with nothing thrown meanwhile', async () => {
    const { url } = await server();
    const closed = servers.pop() as Server;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const fetch = createNodeFetch({ connectMs: 5_000 });
    fetch.preconnect(url);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(fetch(url, { method: 'POST', body: '{}' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('sends on a fresh connection when the server closed the prepared one while it waited', async () => {
    const { url, log } = await server();
    servers[0]?.on('connection', (socket: Socket) => {
      if (log.connections === 1) socket.end();
    });
    const fetch = createNodeFetch({ connectMs: 5_000 });
    fetch.preconnect(url);
    await until(() => log.connections === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const response = await fetch(url, { method: 'POST', body: '{}' });
    expect(await response.text()).toBe('ok');
    expect(log.requests.map((r) => r.connection)).toEqual([2]);
  });

  it('sends once more when the prepared connection is reset as the request goes out', async () => {
    // The server closes the first connection the moment a request arrives on it, as a server
    // whose idle timer fired at that instant does; the second answers.
    const { url, log } = await server((req, res, connection) => {
      if (connection === 1) req.socket.destroy();
      else res.end('ok');
    });
    const fetch = createNodeFetch({ connectMs: 5_000 });
    fetch.preconnect(url);
    await until(() => log.connections === 1);
    const response = await fetch(url, { method: 'POST', body: '{}' });
    expect(await response.text()).toBe('ok');
    expect(log.requests.map((r) => r.connection)).toEqual([1, 2]);
  });

  it('ignores what it cannot connect to', () => {
    const fetch = createNodeFetch({ connectMs: 5_000 });
    expect(() => fetch.preconnect(new URL('file:///etc/passwd'))).not.toThrow();
  });
});
