/**
 * Where the browser comes back after a sign-in: a server on 127.0.0.1 (a random port), or on the
 * fixed `oauth.callbackPort` of a client registered by hand, whose redirect URI the authorization
 * server knows as `http://localhost:<port>/callback`. One sign-in may send the browser back more
 * than once (a server that asks for more scope right after), so each return is queued and read
 * in turn with `nextCode`, which gives up after `waitMs` or when `signal` aborts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type CallbackServer = {
  url: string;
  nextCode(waitMs: number, signal?: AbortSignal): Promise<string>;
  close(): void;
};

type Return = { code: string } | { refused: string };

export async function startCallbackServer(fixedPort: number | undefined): Promise<CallbackServer> {
  const arrived: Return[] = [];
  let wake: (() => void) | undefined;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    const code = url.searchParams.get('code');
    const error = url.searchParams.get('error');
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(
      code
        ? 'Signed in. You can close this tab and go back to Yoke.'
        : `Sign-in failed: ${error ?? 'no code'}`,
    );
    arrived.push(code ? { code } : { refused: error ?? 'it sent no code' });
    wake?.();
  });
  const host = fixedPort === undefined ? '127.0.0.1' : 'localhost';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`the callback port ${fixedPort} is in use; free it or change "oauth.callbackPort"`)
          : error,
      ),
    );
    server.listen(fixedPort ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;

  const nextCode = (waitMs: number, signal?: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = () => {
        wake = undefined;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const take = () => {
        const next = arrived.shift();
        if (!next) return;
        finish();
        if ('code' in next) resolve(next.code);
        else reject(new Error(`the authorization server refused: ${next.refused}`));
      };
      const onAbort = () => {
        finish();
        reject(new Error('the sign-in was cancelled'));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      timer = setTimeout(() => {
        finish();
        reject(new Error(`no sign-in within ${Math.round(waitMs / 60_000)} minutes; try again`));
      }, waitMs);
      wake = take;
      take();
    });

  return { url: `http://${host}:${port}/callback`, nextCode, close: () => server.close() };
}
