/**
 * OAuth 2.1 for HTTP and SSE servers, on the MCP SDK's auth helpers (discovery, dynamic client
 * registration, PKCE). The SDK asks an `OAuthClientProvider` for what it needs; Yoke has three:
 * - `BrowserSignInProvider`: `yoke mcp login` and /mcp, where a user opens the address;
 * - `SessionTokenProvider`: a session using the tokens of an earlier sign-in, refreshing them,
 *   but unable to sign anyone in (no browser): it says what to run instead;
 * - `ServiceClientProvider` (oauth-client-credentials.ts): no user at all.
 * All three keep their state per server in the user state (oauth-store.ts), and all three learn
 * of a server's insufficient-scope refusals (oauth-scope.ts) before the SDK asks them for new
 * tokens: a refresh never widens scope (RFC 6749 §6), so a refusal for scope means a new sign-in
 * for the union of the scopes the server named — or, when the refused scope was already asked
 * for, that no sign-in will help.
 */
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpUserOAuthConfig } from './oauth-config';
import { fetchPinnedAuthServer, type PinnedAuthServer, sameIssuer } from './oauth-metadata-url';
import { coversScopes, type ScopeChallenge, unionScopes } from './oauth-scope';
import { readStored, type StoredOAuth, updateStored } from './oauth-store';

export { forgetClient, hasStoredTokens, oauthKey } from './oauth-store';

type Env = Readonly<Record<string, string | undefined>>;

/** How many times one call may step up (sign in or fetch a token for more scope) before Yoke gives up. */
export const MAX_STEP_UPS_PER_CALL = 2;

/** A server kept asking for more scope: the bounded number of step-ups for one call is used up. */
export class StepUpLimitError extends Error {
  constructor(server: string) {
    super(
      `MCP server "${server}" asked for more scope again after ${MAX_STEP_UPS_PER_CALL} new authorizations for this call; Yoke stops here (check the scopes the server needs)`,
    );
    this.name = 'StepUpLimitError';
  }
}

/** A refusal for scope, as the provider judged it. */
export type ScopeRefusal = {
  /** The scope the server named (undefined when it named none). */
  scope: string | undefined;
  /** Everything to ask for next: what the server has ever named, with this. */
  union: string | undefined;
  /** The refused scope was already asked for when the tokens were obtained: no sign-in will help. */
  futile: boolean;
};

/** A session needs a user to sign in (again); the message says how, in one line. */
export class SignInRequiredError extends Error {
  constructor(
    message: string,
    readonly refusal?: ScopeRefusal,
  ) {
    super(message);
    this.name = 'SignInRequiredError';
  }
}

const signInAgain = (server: string) =>
  `sign in again with \`yoke mcp login ${server}\` (or /mcp in the interactive UI)`;

/** What a session without a browser says when a call needs more scope than its tokens carry. */
export const needsMoreScopeLine = (server: string, refusal: ScopeRefusal): string =>
  `MCP server "${server}" needs more access for this call${refusal.union ? ` (scope "${refusal.union}")` : ''}; ${signInAgain(server)}, then retry`;

/** The server refuses for a scope the authorization server has already declined to grant. */
export class ScopeNotGrantedError extends Error {
  constructor(server: string, scope: string | undefined) {
    super(
      `MCP server "${server}" still refuses${scope ? ` for want of scope "${scope}"` : ' for want of scope'}, which the last sign-in asked for; the authorization server did not grant it (ask its administrator), so Yoke stops asking`,
    );
    this.name = 'ScopeNotGrantedError';
  }
}

export abstract class StoredOAuthProviderBase implements Partial<OAuthClientProvider> {
  /** The last insufficient-scope refusal since it was cleared (per call; see `clearRefusal`). */
  refusal: ScopeRefusal | undefined;

  /** The authorization server the flow in progress talks to: the pinned one, or what the SDK discovered. */
  protected authServer: string | undefined;
  /** Its metadata, once the flow has it. */
  protected authServerMetadata: OAuthDiscoveryState['authorizationServerMetadata'];
  private pinned: Promise<PinnedAuthServer> | undefined;

  constructor(
    protected readonly env: Env,
    protected readonly key: string,
    /** The server's name, for messages. */
    readonly server: string,
    /** `oauth.authServerMetadataUrl`: the authorization server's metadata is read there, not discovered. */
    protected readonly metadataUrl?: string,
  ) {}

  /** With a metadata address, the SDK skips discovery and uses its (issuer-checked) document. */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    if (!this.metadataUrl) return undefined;
    this.pinned ??= fetchPinnedAuthServer(this.server, this.metadataUrl);
    // A failed read is not remembered: the next attempt reads the address again.
    const { issuer, metadata } = await this.pinned.catch((error: unknown) => {
      this.pinned = undefined;
      throw error;
    });
    this.authServer = issuer;
    this.authServerMetadata = metadata;
    return { authorizationServerUrl: issuer, authorizationServerMetadata: metadata };
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.authServer = state.authorizationServerUrl;
    this.authServerMetadata = state.authorizationServerMetadata;
  }

  /**
   * Whether stored tokens may go to the authorization server of this flow. The SDK already keeps a
   * stamped token from another issuer; an unstamped one (an older sign-in) cannot be proven to
   * come from a metadata address the config names, so it is not sent there.
   */
  protected mayRefreshAt(tokens: OAuthTokens): boolean {
    if (tokens.issuer == null) return this.metadataUrl === undefined;
    return this.authServer === undefined || sameIssuer(tokens.issuer, this.authServer);
  }

  protected read(): Promise<StoredOAuth> {
    return readStored(this.env, this.key);
  }

  protected update(change: (stored: StoredOAuth) => StoredOAuth): Promise<void> {
    return updateStored(this.env, this.key, change);
  }

  clearRefusal(): void {
    this.refusal = undefined;
  }

  /** Called (through the transport's fetch) for each 403 insufficient_scope, before the SDK reacts. */
  async noteScopeChallenge(challenge: ScopeChallenge): Promise<void> {
    const stored = await this.read();
    const held = stored.tokenScope ?? stored.tokens?.scope;
    const futile =
      challenge.scope !== undefined && stored.tokens !== undefined && coversScopes(held, challenge.scope);
    const union = unionScopes(stored.scope, challenge.scope);
    this.refusal = { scope: challenge.scope, union, futile };
    if (!futile)
      await this.update((entry) => ({
        ...entry,
        ...(union ? { scope: union } : {}),
        stepUp: challenge.scope ?? '',
      }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.read()).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.update(({ codeVerifier: _done, stepUp: _granted, requestedScope, ...stored }) => ({
      ...stored,
      tokens,
      // A refresh asks for nothing new: the tokens keep the scope of the sign-in that got them.
      ...(requestedScope !== undefined ? { tokenScope: requestedScope } : {}),
    }));
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    return (await this.read()).client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.update((stored) => ({ ...stored, client }));
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    await this.update((stored) => {
      if (scope === 'all') return {};
      const next = { ...stored };
      if (scope === 'client') delete next.client;
      if (scope === 'tokens') delete next.tokens;
      if (scope === 'verifier') delete next.codeVerifier;
      return next;
    });
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.update((stored) => ({ ...stored, codeVerifier }));
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.read()).codeVerifier;
    if (!verifier) throw new Error('No sign-in is in progress for this server; run `yoke mcp login` again.');
    return verifier;
  }
}

/** What a sign-in under Claude Code's scope pin asks for: the pin, and what a pending refusal names. */
function pinnedScope(pin: string, stored: StoredOAuth): string | undefined {
  // Scopes gathered under another pin (or none) are the server's suggestions: only a pending refusal's count.
  return unionScopes(pin, stored.scopePin === pin ? stored.scope : stored.stepUp || undefined);
}

/** `yoke mcp login` and /mcp: a user opens the authorization address in a browser. */
export class BrowserSignInProvider extends StoredOAuthProviderBase implements OAuthClientProvider {
  constructor(
    env: Env,
    key: string,
    server: string,
    /** Where the authorization server sends the browser back (Yoke's callback server). */
    private readonly redirect: string,
    /** Called with each address the user must open to sign in. */
    private readonly onAuthorizationUrl: (url: URL) => void,
    private readonly oauth: McpUserOAuthConfig | undefined,
  ) {
    super(env, key, server, oauth?.authServerMetadataUrl);
  }

  /** The server's `oauth.clientMetadataUrl`, the client id where the authorization server takes one. */
  get clientMetadataUrl(): string | undefined {
    return this.oauth?.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.redirect;
  }

  /**
   * Under a scope pin, a client that registers dynamically registers for the pinned scopes: the
   * SDK would register for the scope the server suggested, and an authorization server that holds
   * a client to its registered scopes would then refuse the pinned ones. So Yoke registers first,
   * once the flow knows the authorization server, and the SDK finds the client registered.
   */
  override async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const stored = await super.clientInformation();
    const pin = this.oauth?.scopes;
    const metadata = this.authServerMetadata;
    const issuer = this.authServer;
    if (stored || !pin || !issuer || !metadata?.registration_endpoint) return stored;
    // A client ID metadata document is the client the server takes instead of a registration.
    if (this.clientMetadataUrl && metadata.client_id_metadata_document_supported === true) return undefined;
    const { registerClient } = await import('@modelcontextprotocol/sdk/client/auth.js');
    const scope = pinnedScope(pin, await this.read());
    const registered = await registerClient(issuer, {
      metadata,
      clientMetadata: this.clientMetadata,
      ...(scope ? { scope } : {}),
    });
    // Stamped with its authorization server, as the SDK stamps the clients it registers.
    const client = { ...registered, issuer };
    await this.saveClientInformation(client);
    return client;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Yoke',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  /**
   * While a refusal for scope is pending, the refresh token is withheld: only a sign-in can widen
   * scope. So it is when it may not go to this authorization server (see `mayRefreshAt`).
   */
  override async tokens(): Promise<OAuthTokens | undefined> {
    const stored = await this.read();
    if (!stored.tokens || (stored.stepUp === undefined && this.mayRefreshAt(stored.tokens)))
      return stored.tokens;
    const { refresh_token: _withheld, ...tokens } = stored.tokens;
    return tokens;
  }

  /** Addresses issued by this sign-in: the first, then at most MAX_STEP_UPS_PER_CALL for more scope. */
  private authorizations = 0;

  /**
   * Asks for every scope the server has named so far, not just the latest challenge's — or, when
   * the config pins the scopes (`oauth.scopes`), for those instead of what the server's metadata
   * or 401 suggests, plus whatever a refusal for scope named since the pin was set.
   */
  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.refusal?.futile) throw new ScopeNotGrantedError(this.server, this.refusal.scope);
    if (++this.authorizations > 1 + MAX_STEP_UPS_PER_CALL) throw new StepUpLimitError(this.server);
    const stored = await this.read();
    const pin = this.oauth?.scopes;
    const scope = pin
      ? pinnedScope(pin, stored)
      : unionScopes(stored.scope, url.searchParams.get('scope') ?? undefined);
    if (scope) url.searchParams.set('scope', scope);
    await this.update(({ scopePin: _previous, ...entry }) => ({
      ...entry,
      ...(scope ? { scope } : {}),
      ...(pin ? { scopePin: pin } : {}),
      requestedScope: scope ?? '',
    }));
    this.onAuthorizationUrl(url);
  }
}

/** A session's use of an earlier sign-in: tokens are sent and refreshed; signing in is for a user. */
export class SessionTokenProvider extends StoredOAuthProviderBase implements OAuthClientProvider {
  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'Yoke', redirect_uris: [], grant_types: ['authorization_code', 'refresh_token'] };
  }

  /** A refresh token is never sent to another authorization server than the one that granted it: say so first. */
  override async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    const state = await super.discoveryState();
    const tokens = (await this.read()).tokens;
    if (tokens?.refresh_token && !this.mayRefreshAt(tokens)) throw this.grantedElsewhere();
    return state;
  }

  private grantedElsewhere(): SignInRequiredError {
    return new SignInRequiredError(
      `MCP server "${this.server}": its stored sign-in is not from ${this.authServer ?? 'the authorization server'}, which ${this.metadataUrl ? 'oauth.authServerMetadataUrl' : 'the server'} names, so Yoke does not send it there; ${signInAgain(this.server)}`,
    );
  }

  /**
   * The SDK asks for a token request when the server refuses the token (401 or 403): a refresh
   * when the token merely expired, and otherwise a line saying which sign-in is needed.
   */
  async prepareTokenRequest(): Promise<URLSearchParams> {
    const refusal = this.refusal;
    if (refusal?.futile) throw new ScopeNotGrantedError(this.server, refusal.scope);
    if (refusal) throw new SignInRequiredError(needsMoreScopeLine(this.server, refusal), refusal);
    const tokens = (await this.read()).tokens;
    if (tokens?.refresh_token && !this.mayRefreshAt(tokens)) throw this.grantedElsewhere();
    if (tokens?.refresh_token)
      return new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    throw new SignInRequiredError(
      `MCP server "${this.server}" no longer accepts the stored sign-in; ${signInAgain(this.server)}`,
    );
  }

  /**
   * Only refreshes come here: the new tokens carry the scope of the sign-in that got the old ones
   * (and a pending step-up stays pending), and an answer that leaves out the refresh token keeps
   * the old one, which stays valid (RFC 6749 §6).
   */
  override async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.update((stored) => ({
      ...stored,
      tokens: {
        ...(stored.tokens?.refresh_token ? { refresh_token: stored.tokens.refresh_token } : {}),
        ...tokens,
      },
    }));
  }

  redirectToAuthorization(): never {
    throw new SignInRequiredError(
      `MCP server "${this.server}" asks for a sign-in; run \`yoke mcp login ${this.server}\``,
    );
  }
}
