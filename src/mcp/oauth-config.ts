/**
 * A server's `oauth` entry, checked. Two kinds of client, which never mix:
 * - a user signs in in a browser (authorization code with PKCE): dynamically registered, or
 *   Claude Code's `clientId` + `callbackPort` for a client registered by hand, or a client ID
 *   metadata document (`clientMetadataUrl`);
 * - no user at all (`"grantType": "client_credentials"`, for CI and services): the client
 *   authenticates itself, with a secret (client_secret_basic) or a private key that signs an
 *   assertion (private_key_jwt, when `privateKeyFile` is given).
 * Secrets never sit in a config file: the secret is read from an environment variable
 * (`clientSecretEnv`, by default `MCP_CLIENT_SECRET`), the key from a file the entry names. The
 * variable's name must start with `MCP_`: the entry may come from a project's `.mcp.json`, and the
 * secret goes to whatever token endpoint the server names, so a planted entry must not be able
 * to send it an unrelated credential (`AWS_SECRET_ACCESS_KEY`).
 */
import { isJsonObject } from '../lib/json-object';

/** A user signs in (Claude Code's `oauth` fields, plus the client ID metadata document). */
export type McpUserOAuthConfig = {
  grantType: 'authorization_code';
  /** Registered by hand at the authorization server; its secret, if any, in `MCP_CLIENT_SECRET`. */
  clientId?: string;
  /** The port registered with that client (its redirect URI is `http://localhost:<port>/callback`). */
  callbackPort?: number;
  /**
   * Where a client ID metadata document describing this client is published (https, with a
   * path): an authorization server that accepts such documents takes this URL as the client id,
   * instead of a dynamic registration.
   */
  clientMetadataUrl?: string;
  /**
   * Claude Code's scope pin: the space-separated scopes a sign-in asks for, instead of those the
   * server's metadata or 401 suggest (a later refusal for more scope adds the ones it names).
   */
  scopes?: string;
  /** Where the authorization server's metadata is read, instead of discovering it from the server. */
  authServerMetadataUrl?: string;
};

/** How a userless client proves who it is at the token endpoint. */
export type ClientAuthentication =
  | { method: 'client_secret_basic'; secretEnv: string }
  | { method: 'private_key_jwt'; privateKeyFile: string; algorithm?: string };

/** No user: the client's own credentials buy the token (OAuth client_credentials grant). */
export type McpClientCredentialsConfig = {
  grantType: 'client_credentials';
  clientId: string;
  /** Space-separated scopes to ask for; scopes a server later demands are added to them. */
  scopes?: string;
  authentication: ClientAuthentication;
  /** As for a sign-in: the authorization server's metadata is read here. */
  authServerMetadataUrl?: string;
};

export type McpOAuthConfig = McpUserOAuthConfig | McpClientCredentialsConfig;

export const DEFAULT_SECRET_ENV = 'MCP_CLIENT_SECRET';

/** The signing algorithms a private_key_jwt assertion may use (asymmetric only: a shared key is a secret). */
export const SIGNING_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

/** Only variables meant for MCP clients (see the header). */
const SECRET_ENV_NAME = /^MCP_[A-Za-z0-9_]+$/;

/** URL.parse is newer than the oldest Node 20 Yoke runs on. */
export function parseUrl(text: unknown): URL | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

const USER_KEYS = [
  'grantType',
  'clientId',
  'callbackPort',
  'clientMetadataUrl',
  'scopes',
  'authServerMetadataUrl',
];
const SERVICE_KEYS = [
  'grantType',
  'clientId',
  'scopes',
  'authServerMetadataUrl',
  'clientSecretEnv',
  'privateKeyFile',
  'signingAlgorithm',
];

/** The `oauth` entry, or a problem line naming the field. */
export function parseOAuth(raw: unknown): McpOAuthConfig | undefined | string {
  if (raw === undefined) return undefined;
  if (!isJsonObject(raw)) return '"oauth" must be an object';
  const grantType = raw.grantType ?? 'authorization_code';
  if (grantType !== 'authorization_code' && grantType !== 'client_credentials')
    return '"oauth.grantType" must be "authorization_code" or "client_credentials"';
  if (raw.clientId !== undefined && (typeof raw.clientId !== 'string' || raw.clientId === ''))
    return '"oauth.clientId" must be a non-empty string';
  const allowed = grantType === 'client_credentials' ? SERVICE_KEYS : USER_KEYS;
  // A field of the other kind of client is a mistake that would otherwise be silently ignored.
  const misplaced = Object.keys(raw).find(
    (key) => !allowed.includes(key) && [...USER_KEYS, ...SERVICE_KEYS].includes(key),
  );
  if (misplaced)
    return `"oauth.${misplaced}" does not go with ${grantType === 'client_credentials' ? 'the client_credentials grant' : 'a sign-in in the browser (add "grantType": "client_credentials" for a client without a user)'}`;
  return grantType === 'client_credentials' ? parseClientCredentials(raw) : parseUserOAuth(raw);
}

/** Loopback hosts, where plain http is allowed (a local authorization server, as in tests). */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** https, or http on this machine only: the metadata names the endpoints tokens are sent to. */
export function isSecureOrLoopback(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname));
}

/**
 * The fields both kinds of client share (Claude Code documents `scopes` as one space-separated
 * string, and `authServerMetadataUrl` as https).
 */
function parseShared(
  raw: Record<string, unknown>,
): { scopes?: string; authServerMetadataUrl?: string } | string {
  const shared: { scopes?: string; authServerMetadataUrl?: string } = {};
  if (raw.scopes !== undefined) {
    if (typeof raw.scopes !== 'string' || raw.scopes.trim() === '')
      return '"oauth.scopes" must be a space-separated string of scopes, e.g. "read write"';
    shared.scopes = raw.scopes.trim().split(/\s+/).join(' ');
  }
  if (raw.authServerMetadataUrl !== undefined) {
    const url = parseUrl(raw.authServerMetadataUrl);
    if (!url || !isSecureOrLoopback(url) || url.username || url.password || url.hash)
      return '"oauth.authServerMetadataUrl" must be an https URL (http only for localhost) of the authorization server\'s metadata';
    shared.authServerMetadataUrl = url.href;
  }
  return shared;
}

function parseUserOAuth(raw: Record<string, unknown>): McpUserOAuthConfig | string {
  const shared = parseShared(raw);
  if (typeof shared === 'string') return shared;
  const oauth: McpUserOAuthConfig = { grantType: 'authorization_code', ...shared };
  if (typeof raw.clientId === 'string') oauth.clientId = raw.clientId;
  if (raw.callbackPort !== undefined) {
    const port = raw.callbackPort;
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
      return '"oauth.callbackPort" must be a port number (1-65535)';
    oauth.callbackPort = port;
  }
  if (raw.clientMetadataUrl !== undefined) {
    const url = parseUrl(raw.clientMetadataUrl);
    if (url?.protocol !== 'https:' || url.pathname === '/')
      return '"oauth.clientMetadataUrl" must be an https URL with a path';
    oauth.clientMetadataUrl = url.href;
  }
  return oauth;
}

function parseClientCredentials(raw: Record<string, unknown>): McpClientCredentialsConfig | string {
  if (typeof raw.clientId !== 'string')
    return '"oauth.clientId" is needed with the client_credentials grant (the client registered at the authorization server)';
  const shared = parseShared(raw);
  if (typeof shared === 'string') return shared;
  if (raw.clientSecret !== undefined)
    return '"oauth.clientSecret" is not read from a config file; put the secret in an environment variable and name it in "oauth.clientSecretEnv"';
  if (raw.privateKeyFile !== undefined && raw.clientSecretEnv !== undefined)
    return 'give "oauth.privateKeyFile" (private_key_jwt) or "oauth.clientSecretEnv" (client_secret_basic), not both';
  let authentication: ClientAuthentication;
  if (raw.privateKeyFile !== undefined) {
    if (typeof raw.privateKeyFile !== 'string' || raw.privateKeyFile === '')
      return '"oauth.privateKeyFile" must be the path of a PEM private key';
    const algorithm = raw.signingAlgorithm;
    if (algorithm !== undefined && (typeof algorithm !== 'string' || !SIGNING_ALGORITHMS.includes(algorithm)))
      return `"oauth.signingAlgorithm" must be one of ${SIGNING_ALGORITHMS.join(', ')}`;
    authentication = {
      method: 'private_key_jwt',
      privateKeyFile: raw.privateKeyFile,
      ...(typeof algorithm === 'string' ? { algorithm } : {}),
    };
  } else {
    if (raw.signingAlgorithm !== undefined)
      return '"oauth.signingAlgorithm" goes with "oauth.privateKeyFile"';
    const secretEnv = raw.clientSecretEnv ?? DEFAULT_SECRET_ENV;
    if (typeof secretEnv !== 'string' || !SECRET_ENV_NAME.test(secretEnv))
      return '"oauth.clientSecretEnv" must name an environment variable that starts with MCP_ (one meant for this client, not another credential)';
    authentication = { method: 'client_secret_basic', secretEnv };
  }
  return {
    grantType: 'client_credentials',
    clientId: raw.clientId,
    ...shared,
    authentication,
  };
}
