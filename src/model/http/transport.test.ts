/**
 * The transport against real sockets: a server that accepts and never answers, one that stops
 * mid-body, and one that accepts TCP but never completes the TLS handshake (the connect phase).
 * The deadlines are a few milliseconds, and each server is silent for good, so which deadline
 * fires is certain; no test measures how long anything took.
 */
import { createServer as createHttpServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TransportDeadlineError } from './deadline';
import { createNodeFetch } from './node-fetch';
import { withDeadlines } from './timed-fetch';

const open: Array<Server | TcpServer> = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(
    open.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          if ('closeAllConnections' in server) server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

async function listen(server: Server | TcpServer): Promise<string> {
  open.push(server);
  server.on('connection', (socket: Socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `127.0.0.1:${address.port}`;
}

function httpServer(handler: (res: ServerResponse, body: string) => void): Promise<string> {
  return listen(
    createHttpServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => handler(res, body));
    }),
  );
}

const transport = (timeouts: { connectMs?: number; firstByteMs?: number; idleMs?: number } = {}) =>
  withDeadlines(createNodeFetch({ connectMs: timeouts.connectMs ?? 5_000 }), {
    firstByteMs: timeouts.firstByteMs ?? 5_000,
    idleMs: timeouts.idleMs ?? 5_000,
  });

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('node fetch with deadlines', () => {
  it('sends the body and headers and streams the answer back', async () => {
    const host = await httpServer((res, body) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-echo': 'yes' });
      res.end(JSON.stringify({ got: JSON.parse(body) }));
    });
    const response = await transport()(`http://${host}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-echo')).toBe('yes');
    expect(await response.json()).toEqual({ got: { hello: 'world' } });
  });

  it('ends a request the server accepted but never answered with the first-byte deadline', async () => {
    const host = await httpServer(() => {});
    const error = await failure(
      transport({ firstByteMs: 30 })(`http://${host}/`, { method: 'POST', body: '{}' }),
    );
    expect(error).toBeInstanceOf(TransportDeadlineError);
    expect((error as TransportDeadlineError).phase).toBe('first_byte');
    expect((error as Error).message).toBe('connected, but no response within 30 ms');
  });

  it('counts headers without a body chunk as no response yet', async () => {
    const host = await httpServer((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
    });
    const response = await transport({ firstByteMs: 30 })(`http://${host}/`);
    const error = await failure(response.text());
    expect((error as TransportDeadlineError).phase).toBe('first_byte');
  });

  it('ends a body that stops mid-stream with the between-chunks deadline', async () => {
    const host = await httpServer((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
    });
    const response = await transport({ idleMs: 30 })(`http://${host}/`);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
    const error = await failure(reader.read());
    expect(error).toBeInstanceOf(TransportDeadlineError);
    expect((error as TransportDeadlineError).phase).toBe('idle');
  });

  it('ends a connection whose TLS handshake never completes with the connect deadline', async () => {
    // Accepts TCP and then says nothing: the TLS client waits for a ServerHello that never comes.
    const host = await listen(createTcpServer(() => {}));
    const error = await failure(transport({ connectMs: 30 })(`https://${host}/`));
    expect(error).toBeInstanceOf(TransportDeadlineError);
    expect((error as TransportDeadlineError).phase).toBe('connect');
  });

  it("rejects with the caller's abort, not a deadline", async () => {
    const host = await httpServer(() => {});
    const controller = new AbortController();
    const pending = transport()(`http://${host}/`, { signal: controller.signal });
    controller.abort();
    const error = await failure(pending);
    expect(error).not.toBeInstanceOf(TransportDeadlineError);
    expect((error as Error).name).toBe('AbortError');
  });

  it('reports a refused connection with its error code', async () => {
    const host = await listen(createTcpServer());
    await new Promise<void>((resolve) => (open.pop() as TcpServer).close(() => resolve()));
    const error = await failure(transport()(`http://${host}/`));
    expect((error as { code?: string }).code).toBe('ECONNREFUSED');
  });
});
