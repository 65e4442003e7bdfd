/**
 * Signing in to an HTTP or SSE MCP server that asks for OAuth (`yoke mcp login` and the REPL's
 * /mcp run this same flow). A callback server on 127.0.0.1 (a random port) receives the browser's
 * return; the client registers itself for that address (dynamic client registration), the user
 * opens the authorization URL, and the code is exchanged with PKCE. A client registered by hand is
 * named by the server's `oauth.clientId` (its fixed `oauth.callbackPort`, its secret in
 * `MCP_CLIENT_SECRET`, never in a config file); `oauth.clientMetadataUrl` names a client ID
 * metadata document. The tokens are kept in Yoke's user state (mode 0600), where sessions find
 * them when they (re)connect.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectionOptionsFromEnv } from './manager';
import { forgetClient, oauthKey, StoredOAuthProvider } from './oauth-provider';
import type { McpRemoteServerConfig } from './server-config';
import { withDeadline } from './server-connection';
import { openTransport } from './transports';

type Env = Readonly<Record<string, string | undefined>>;

const SIGN_IN_WAIT_MS = 5 * 60_000;

type Callback = { url: string; code: Promise<string>; close(): void };

/**
 * Listens on a random port of 127.0.0.1, or on the fixed `oauth.callbackPort` of a pre-registered
 * client, whose redirect URI the authorization server knows as `http://localhost:<port>/callback`.
 */
async function startCallbackServer(fixedPort: number | undefined): Promise<Callback> {
  let settle: { resolve(code: string): void; reject(error: Error): void } | undefined;
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Nobody may be waiting yet when the browser reports a refusal: the rejection is read later.
  code.catch(() => {});
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    const given = url.searchParams.get('code');
    const error = url.searchParams.get('error');
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(
      given
        ? 'Signed in. You can close this tab and go back to Yoke.'
        : `Sign-in failed: ${error ?? 'no code'}`,
    );
    if (given) settle?.resolve(given);
    else settle?.reject(new Error(`the authorization server refused: ${error ?? 'it sent no code'}`));
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
  return { url: `http://${host}:${port}/callback`, code, close: () => server.close() };
}

export type SignInOptions = {
  env: Env;
  cwd: string;
  /** Called once with the address the user must open (print it; open a browser if one is there). */
  onAuthorizationUrl(url: URL): void;
  /** Cancels the wait for the browser (Esc in the REPL). */
  signal?: AbortSignal;
  waitMs?: number;
};

/** 'not-needed' when the server let Yoke in without signing in. */
export async function signInToServer(
  name: string,
  config: McpRemoteServerConfig,
  options: SignInOptions,
): Promise<'signed-in' | 'not-needed'> {
  const key = oauthKey(name, config.url);
  const callback = await startCallbackServer(config.oauth?.callbackPort);
  try {
    const provider = new StoredOAuthProvider(
      options.env,
      key,
      callback.url,
      options.onAuthorizationUrl,
      config.oauth?.clientMetadataUrl,
    );
    const clientId = config.oauth?.clientId;
    if (clientId) {
      // Registered by hand at the authorization server: no dynamic registration, and its secret
      // (a confidential client) comes from the environment, never from a config file.
      const secret = options.env.MCP_CLIENT_SECRET;
      await provider.saveClientInformation({
        client_id: clientId,
        ...(secret ? { client_secret: secret } : {}),
        redirect_uris: [callback.url],
      });
    } else {
      // Registered for this callback address, so an earlier registration (another port) is dropped.
      await forgetClient(options.env, key);
    }
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { UnauthorizedError } = await import('@modelcontextprotocol/sdk/client/auth.js');
    const first = await openTransport(config, { env: options.env, cwd: options.cwd, authProvider: provider });
    const probe = new Client({ name: 'yoke', version: YOKE_VERSION });
    // A server or authorization server that never answers ends the sign-in with a line, not a hang.
    const { connectTimeoutMs } = connectionOptionsFromEnv(options.env, options.cwd);
    const inTime = <T>(work: Promise<T>, what: string) =>
      withDeadline(
        work,
        connectTimeoutMs,
        () => `${what} did not answer within ${connectTimeoutMs / 1000} s (MCP_TIMEOUT); run it again`,
      );
    try {
      await inTime(probe.connect(first.transport), `MCP server "${name}"`);
      await probe.close();
      return 'not-needed';
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) throw error;
    }
    const waitMs = options.waitMs ?? SIGN_IN_WAIT_MS;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const code = await Promise.race([
      callback.code,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no sign-in within ${Math.round(waitMs / 60_000)} minutes; try again`)),
          waitMs,
        );
        onAbort = () => reject(new Error('the sign-in was cancelled'));
        if (options.signal?.aborted) onAbort();
        options.signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]).finally(() => {
      clearTimeout(timer);
      if (onAbort) options.signal?.removeEventListener('abort', onAbort);
    });
    // Both HTTP transports (streamable and SSE) exchange the code themselves.
    await inTime(
      (first.transport as unknown as { finishAuth(code: string): Promise<void> }).finishAuth(code),
      'the authorization server',
    );
    const check = new Client({ name: 'yoke', version: YOKE_VERSION });
    const second = await openTransport(config, {
      env: options.env,
      cwd: options.cwd,
      authProvider: provider,
    });
    await inTime(check.connect(second.transport), `MCP server "${name}"`);
    await check.close();
    return 'signed-in';
  } finally {
    callback.close();
  }
}
