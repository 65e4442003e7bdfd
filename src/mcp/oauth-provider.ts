/**
 * OAuth 2.1 for HTTP and SSE servers that answer 401, on the MCP SDK's auth helpers (discovery,
 * dynamic client registration, PKCE, refresh). What they need to remember — the registered
 * client, the tokens, the PKCE verifier of a sign-in in progress — is kept per server in Yoke's
 * user state (`mcpOAuth`), a file written with mode 0600. The key includes the URL, so a server
 * moved elsewhere never receives another server's token.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { readUserState, updateUserState } from '../config/user-state';
import { isJsonObject, type JsonObject } from '../lib/json-object';

type Env = Readonly<Record<string, string | undefined>>;

type Stored = { client?: OAuthClientInformationMixed; tokens?: OAuthTokens; codeVerifier?: string };

export const oauthKey = (server: string, url: string): string => `${server}|${url}`;

async function readStored(env: Env, key: string): Promise<Stored> {
  const { state } = await readUserState(env);
  const all = state.mcpOAuth;
  const entry = isJsonObject(all) ? all[key] : undefined;
  return isJsonObject(entry) ? (entry as Stored) : {};
}

async function updateStored(env: Env, key: string, change: (stored: Stored) => Stored): Promise<void> {
  await updateUserState(env, (state) => {
    const all: JsonObject = isJsonObject(state.mcpOAuth) ? state.mcpOAuth : {};
    const entry = isJsonObject(all[key]) ? (all[key] as Stored) : {};
    all[key] = change(entry) as JsonObject;
    state.mcpOAuth = all;
  });
}

/** Whether a sign-in left tokens for this server (sessions then send them, refreshing as needed). */
export async function hasStoredTokens(env: Env, key: string): Promise<boolean> {
  return (await readStored(env, key)).tokens !== undefined;
}

/** Forgets the registered client (a new sign-in registers again, with its own redirect URL). */
export async function forgetClient(env: Env, key: string): Promise<void> {
  await updateStored(env, key, ({ client: _dropped, ...rest }) => rest);
}

export class StoredOAuthProvider implements OAuthClientProvider {
  constructor(
    private readonly env: Env,
    private readonly key: string,
    /** Where the authorization server sends the browser back; undefined in a session (no one to sign in). */
    private readonly redirect: string | undefined,
    /** Called with the URL the user must open to sign in. */
    private readonly onAuthorizationUrl: (url: URL) => void,
    /** The server's `oauth.clientMetadataUrl`, the client id where the authorization server takes one. */
    readonly clientMetadataUrl?: string,
  ) {}

  get redirectUrl(): string | undefined {
    return this.redirect;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Yoke',
      redirect_uris: this.redirect ? [this.redirect] : [],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    return (await readStored(this.env, this.key)).client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await updateStored(this.env, this.key, (stored) => ({ ...stored, client }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await readStored(this.env, this.key)).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await updateStored(this.env, this.key, ({ codeVerifier: _done, ...stored }) => ({ ...stored, tokens }));
  }

  redirectToAuthorization(url: URL): void {
    this.onAuthorizationUrl(url);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await updateStored(this.env, this.key, (stored) => ({ ...stored, codeVerifier }));
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await readStored(this.env, this.key)).codeVerifier;
    if (!verifier) throw new Error('No sign-in is in progress for this server; run `yoke mcp login` again.');
    return verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    await updateStored(this.env, this.key, (stored) => {
      if (scope === 'all') return {};
      const next = { ...stored };
      if (scope === 'client') delete next.client;
      if (scope === 'tokens') delete next.tokens;
      if (scope === 'verifier') delete next.codeVerifier;
      return next;
    });
  }
}
