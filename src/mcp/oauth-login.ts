/**
 * Signing in to an HTTP or SSE MCP server that asks for OAuth (`yoke mcp login` and the REPL's
 * /mcp run this same flow, and the REPL runs it when a call needs more scope). A callback server
 * on 127.0.0.1 receives the browser's return (oauth-callback.ts); the client registers itself for
 * that address (dynamic client registration) unless the config names one (`oauth.clientId`, its
 * secret in `MCP_CLIENT_SECRET`, or `oauth.clientMetadataUrl`); the user opens the authorization
 * URL, and the code is exchanged with PKCE. The tokens are kept in Yoke's user state (mode 0600),
 * where sessions find them.
 *
 * Whether a sign-in is needed is found out the way a session would: connect and list the tools.
 * A server may let that through without a token and still want one — it publishes protected-
 * resource metadata, or an earlier call was refused for want of scope (remembered in the user
 * state) — and then the sign-in starts anyway, for the union of the scopes it named. A server that
 * refuses the new token for more scope gets another sign-in, at most MAX_STEP_UPS_PER_CALL more
 * (BrowserSignInProvider counts them).
 * A userless client (client_credentials) needs no browser: its token is fetched and cached.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectionOptionsFromEnv } from './manager';
import { startCallbackServer } from './oauth-callback';
import { BrowserSignInProvider, forgetClient, oauthKey } from './oauth-provider';
import { sessionAuthProvider } from './oauth-session';
import { readStored } from './oauth-store';
import type { McpRemoteServerConfig } from './server-config';
import { withDeadline } from './server-connection';
import { openTransport } from './transports';

type Env = Readonly<Record<string, string | undefined>>;

const SIGN_IN_WAIT_MS = 5 * 60_000;

export type SignInOptions = {
  env: Env;
  cwd: string;
  /** Called with each address the user must open (print it; open a browser if one is there). */
  onAuthorizationUrl(url: URL): void;
  /** Cancels the wait for the browser (Esc in the REPL). */
  signal?: AbortSignal;
  waitMs?: number;
};

/** Completes an authorization the user has approved, with the code the browser brought back. */
type Finish = (code: string) => Promise<unknown>;

/** 'not-needed' when the server let Yoke in without signing in. */
export async function signInToServer(
  name: string,
  config: McpRemoteServerConfig,
  options: SignInOptions,
): Promise<'signed-in' | 'not-needed'> {
  const { connectTimeoutMs } = connectionOptionsFromEnv(options.env, options.cwd);
  // A server or authorization server that never answers ends the sign-in with a line, not a hang.
  const inTime = <T>(work: Promise<T>, what: string) =>
    withDeadline(
      work,
      connectTimeoutMs,
      () => `${what} did not answer within ${connectTimeoutMs / 1000} s (MCP_TIMEOUT); run it again`,
    );
  const serverName = `MCP server "${name}"`;
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { UnauthorizedError, auth, discoverOAuthProtectedResourceMetadata } = await import(
    '@modelcontextprotocol/sdk/client/auth.js'
  );
  const enter = async (client: Client, transport: Awaited<ReturnType<typeof openTransport>>['transport']) => {
    try {
      await inTime(client.connect(transport), serverName);
      // Listing the tools is what every session does first; a server may guard it and not initialize.
      if (client.getServerCapabilities()?.tools) await inTime(client.listTools(), serverName);
    } finally {
      await client.close().catch(() => {});
    }
  };

  if (config.oauth?.grantType === 'client_credentials') {
    const provider = await sessionAuthProvider(name, config, options.env);
    const opened = await openTransport(config, {
      env: options.env,
      cwd: options.cwd,
      authProvider: provider,
    });
    await enter(new Client({ name: 'yoke', version: YOKE_VERSION }), opened.transport);
    return 'signed-in';
  }

  const key = oauthKey(name, config.url);
  const callback = await startCallbackServer(config.oauth?.callbackPort);
  try {
    const provider = new BrowserSignInProvider(
      options.env,
      key,
      name,
      callback.url,
      options.onAuthorizationUrl,
      config.oauth,
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

    /** Undefined when the server let Yoke in; else how to finish the authorization the SDK started. */
    const attempt = async (): Promise<Finish | undefined> => {
      const opened = await openTransport(config, {
        env: options.env,
        cwd: options.cwd,
        authProvider: provider,
      });
      provider.clearRefusal();
      try {
        await enter(new Client({ name: 'yoke', version: YOKE_VERSION }), opened.transport);
        return undefined;
      } catch (error) {
        if (!(error instanceof UnauthorizedError)) throw error;
        // Both HTTP transports (streamable and SSE) exchange the code themselves.
        return (code) =>
          (opened.transport as unknown as { finishAuth(code: string): Promise<void> }).finishAuth(code);
      }
    };

    let finish = await attempt();
    if (!finish) {
      const stored = await readStored(options.env, key);
      // A config that names the authorization server's metadata says OAuth is wanted.
      const advertisesOAuth = async () =>
        config.oauth?.authServerMetadataUrl !== undefined ||
        inTime(discoverOAuthProtectedResourceMetadata(config.url), serverName).then(
          () => true,
          () => false,
        );
      if (stored.stepUp === undefined && (stored.tokens !== undefined || !(await advertisesOAuth())))
        return 'not-needed';
      // Let in, yet a token is wanted: start the authorization here, for every scope named so far.
      const scope = stored.scope;
      await inTime(
        auth(provider, { serverUrl: config.url, ...(scope ? { scope } : {}) }),
        'the authorization server',
      );
      finish = async (code) => {
        const result = await auth(provider, {
          serverUrl: config.url,
          authorizationCode: code,
          ...(scope ? { scope } : {}),
        });
        if (result !== 'AUTHORIZED') throw new Error('the authorization server did not issue a token');
      };
    }
    for (;;) {
      const code = await callback.nextCode(options.waitMs ?? SIGN_IN_WAIT_MS, options.signal);
      await inTime(finish(code), 'the authorization server');
      const again = await attempt();
      if (!again) return 'signed-in';
      // Refused again, for more scope than was just granted: the provider has issued the next
      // address (a refusal for the same scope, or one too many, throws instead).
      finish = again;
    }
  } finally {
    callback.close();
  }
}
