/**
 * `beforeSend`, the REPL's pause for typed input between the SDK building a request and the
 * transport sending it: it runs first, nothing reaches the server until it resolves, and an abort
 * during it sends nothing.
 */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeFetch } from './node-fetch';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function start(log: string[]): Promise<string> {
  server = createServer((_req, res) => {
    log.push('request at the server');
    res.end('ok');
  });
  server.on('connection', () => log.push('connection'));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}/v1/messages`;
}

describe('beforeSend', () => {
  it('runs before anything is sent, on a turn of its own', async () => {
    const log: string[] = [];
    const url = await start(log);
    const fetch = createNodeFetch({
      connectMs: 5_000,
      beforeSend: async () => {
        log.push('before send');
        await new Promise((resolve) => setTimeout(resolve, 30));
        log.push('input handled');
      },
    });
    const response = await fetch(url, { method: 'POST', body: '{}' });
    expect(await response.text()).toBe('ok');
    expect(log).toEqual(['before send', 'input handled', 'connection', 'request at the server']);
  });

  it('sends nothing when the request is aborted meanwhile', async () => {
    const log: string[] = [];
    const url = await start(log);
    const controller = new AbortController();
    const fetch = createNodeFetch({
      connectMs: 5_000,
      beforeSend: async () => {
        controller.abort(new Error('Esc pressed'));
      },
    });
    await expect(fetch(url, { method: 'POST', body: '{}', signal: controller.signal })).rejects.toThrow(
      'Esc pressed',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(log).toEqual([]);
  });
});
