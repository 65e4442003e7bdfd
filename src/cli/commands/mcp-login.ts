/**
 * `yoke mcp login <name>`: signs in to an HTTP or SSE server that asks for OAuth. A callback
 * server on 127.0.0.1 (a random port) receives the browser's return; the client registers itself
 * for that address (dynamic client registration), the user opens the printed URL, and the code
 * is exchanged with PKCE (a client registered by hand is named by the server's `oauth.clientId`,
 * its secret by `MCP_CLIENT_SECRET`). The tokens are kept in Yoke's user state (mode 0600) and sessions send
 * them from then on.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Env } from '../../config/paths';
import { userStatePath } from '../../config/user-state';
import { loadMcpConfiguration, standaloneConfigInput } from '../../mcp/config-sources';
import { expandServerConfig } from '../../mcp/expand-env';
import { connectionOptionsFromEnv } from '../../mcp/manager';
import { forgetClient, oauthKey, StoredOAuthProvider } from '../../mcp/oauth-provider';
import { withDeadline } from '../../mcp/server-connection';
import { openTransport } from '../../mcp/transports';
import { CliUsageError } from '../errors';

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

export async function runMcpLogin(
  args: readonly string[],
  context: { cwd: string; env: Env; print: (line: string) => void },
): Promise<number> {
  const [name, ...extra] = args;
  if (!name || extra.length > 0) throw new CliUsageError('usage: yoke mcp login <name>');
  const configuration = await loadMcpConfiguration(standaloneConfigInput(context.cwd, context.env));
  const server = configuration.servers.find((s) => s.name === name);
  if (!server)
    throw new CliUsageError(`No MCP server named "${name}"; \`yoke mcp list\` shows the configured ones`);
  const expanded = expandServerConfig(server.config, context.env);
  if (!expanded.ok)
    throw new CliUsageError(`MCP server "${name}": unset variables ${expanded.missing.join(', ')}`);
  const config = expanded.config;
  if (config.type === 'stdio')
    throw new CliUsageError(`MCP server "${name}" runs over stdio; only http and sse servers sign in`);

  const key = oauthKey(name, config.url);
  const callback = await startCallbackServer(config.oauth?.callbackPort);
  try {
    const provider = new StoredOAuthProvider(
      context.env,
      key,
      callback.url,
      (url) => {
        context.print(`Open this address in your browser to sign in to "${name}":`);
        context.print(url.href);
      },
      config.oauth?.clientMetadataUrl,
    );
    const clientId = config.oauth?.clientId;
    if (clientId) {
      // Registered by hand at the authorization server: no dynamic registration, and its secret
      // (a confidential client) comes from the environment, never from a config file.
      const secret = context.env.MCP_CLIENT_SECRET;
      await provider.saveClientInformation({
        client_id: clientId,
        ...(secret ? { client_secret: secret } : {}),
        redirect_uris: [callback.url],
      });
    } else {
      // Registered for this callback address, so an earlier registration (another port) is dropped.
      await forgetClient(context.env, key);
    }
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { UnauthorizedError } = await import('@modelcontextprotocol/sdk/client/auth.js');
    const first = await openTransport(config, { env: context.env, cwd: context.cwd, authProvider: provider });
    const probe = new Client({ name: 'yoke', version: YOKE_VERSION });
    // A server or authorization server that never answers ends the login with a line, not a hang.
    const { connectTimeoutMs } = connectionOptionsFromEnv(context.env, context.cwd);
    const inTime = <T>(work: Promise<T>, what: string) =>
      withDeadline(
        work,
        connectTimeoutMs,
        () => `${what} did not answer within ${connectTimeoutMs / 1000} s (MCP_TIMEOUT); run it again`,
      );
    try {
      await inTime(probe.connect(first.transport), `MCP server "${name}"`);
      await probe.close();
      context.print(`MCP server "${name}" let Yoke in without signing in; nothing to do.`);
      return 0;
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) throw error;
    }
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      callback.code,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error('no sign-in within 5 minutes; run it again')),
          SIGN_IN_WAIT_MS,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    // Both HTTP transports (streamable and SSE) exchange the code themselves.
    await inTime(
      (first.transport as unknown as { finishAuth(code: string): Promise<void> }).finishAuth(code),
      'the authorization server',
    );
    const check = new Client({ name: 'yoke', version: YOKE_VERSION });
    const second = await openTransport(config, {
      env: context.env,
      cwd: context.cwd,
      authProvider: provider,
    });
    await inTime(check.connect(second.transport), `MCP server "${name}"`);
    await check.close();
    context.print(`Signed in to "${name}"; the tokens are kept in ${userStatePath(context.env)}.`);
    return 0;
  } finally {
    callback.close();
  }
}
