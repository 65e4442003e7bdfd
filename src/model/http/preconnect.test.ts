/**
 * `preconnect` against real sockets: the first request goes out on the connection opened before
 * it; a prepared connection that failed, or that the server closed while it waited, never costs
 * the request anything but its own attempt.
 */
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
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
  options: ServerOptions = {},
): Promise<{ url: URL; log: Log; fetchCalled(): void }> {
  const log: Log = { connections: 0, requests: [] };
  let fetchCalledAt = Number.POSITIVE_INFINITY;
  const connectedAt = new Map<Socket, { n: number; order: number }>();
  let order = 0;
  const s = createServer(options, (req, res) => {
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

  // Node's server answers a connection that sent no request within its headers timeout with
  // "408 Request Timeout" (60 s by default; shortened here). That unread answer was taken for the
  // first request's response: a failed attempt the SDK then retried.
  const impatient = { headersTimeout: 300, requestTimeout: 300, connectionsCheckingInterval: 50 };

  it("drops a prepared connection the server answered 408 while it waited: the request gets the server's answer", async () => {
    const { url, log } = await server(undefined, impatient);
    const fetch = createNodeFetch({ connectMs: 5_000, preparedSockets: { maxIdleMs: 60_000, refreshes: 0 } });
    fetch.preconnect(url);
    await until(() => log.connections === 1);
    await new Promise((resolve) => setTimeout(resolve, 700));
    const response = await fetch(url, { method: 'POST', body: '{}' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('ok');
    expect(log.requests.map((r) => r.connection)).toEqual([2]);
  });

  it('replaces a prepared connection before the server tires of it, so the first request after idling uses a fresh one', async () => {
    const { url, log, fetchCalled } = await server(undefined, {
      ...impatient,
      headersTimeout: 1000,
      requestTimeout: 1000,
    });
    const fetch = createNodeFetch({ connectMs: 5_000, preparedSockets: { maxIdleMs: 150, refreshes: 20 } });
    fetch.preconnect(url);
    // Past the server's timeout: the first prepared socket would have been answered 408 by now.
    await until(() => log.connections >= 8);
    fetchCalled();
    const response = await fetch(url, { method: 'POST', body: '{}' });
    expect(await response.text()).toBe('ok');
    // Sent on a connection opened before the fetch (a renewed prepared one), the only request.
    expect(log.requests).toHaveLength(1);
    expect(log.requests[0]?.connectedBeforeFetch).toBe(true);
  });

  it('stops renewing after its refreshes: an idle session holds no connection for ever', async () => {
    const { url, log } = await server();
    const fetch = createNodeFetch({ connectMs: 5_000, preparedSockets: { maxIdleMs: 30, refreshes: 2 } });
    fetch.preconnect(url);
    await until(() => log.connections === 3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(log.connections).toBe(3);
    const response = await fetch(url, { method: 'POST', body: '{}' });
    expect(await response.text()).toBe('ok');
    expect(log.requests.map((r) => r.connection)).toEqual([4]);
  });

  it('ignores what it cannot connect to', () => {
    const fetch = createNodeFetch({ connectMs: 5_000 });
    expect(() => fetch.preconnect(new URL('file:///etc/passwd'))).not.toThrow();
  });
});
