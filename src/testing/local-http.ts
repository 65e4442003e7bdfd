/**
 * A test's own HTTP server on a random port of 127.0.0.1 (MCP servers, authorization servers),
 * and the JSON body of a request it receives.
 */
import { createServer, type IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

export type LocalHttp = { base: string; close(): Promise<void> };

export async function listenLocal(handler: RequestListener): Promise<LocalHttp> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The request's body parsed as JSON; undefined when it has none. */
export async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}
