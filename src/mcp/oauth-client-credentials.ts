/**
 * Userless sign-in (OAuth client_credentials grant): a service, CI job or unattended session has
 * its own client at the authorization server and buys tokens with its credentials, no browser.
 * The client proves itself with a secret (client_secret_basic; the secret from an environment
 * variable) or with an assertion signed by its private key (private_key_jwt, RFC 7523; the key
 * from a PEM file). Tokens are cached like a user's (user state, mode 0600); the secret and key
 * never are. A server that refuses for want of scope gets a new token for the union of the scopes
 * it named, automatically, since no one needs to consent.
 */

import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { AddClientAuthentication, OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthMetadata,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { homeDir } from '../config/paths';
import type { McpClientCredentialsConfig } from './oauth-config';
import {
  MAX_STEP_UPS_PER_CALL,
  ScopeNotGrantedError,
  StepUpLimitError,
  StoredOAuthProviderBase,
} from './oauth-provider';
import { unionScopes } from './oauth-scope';

type Env = Readonly<Record<string, string | undefined>>;

/** The key's algorithm when the entry names none: the usual one for its type and curve. */
function defaultAlgorithm(key: KeyObject): string | undefined {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ed25519') return 'EdDSA';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    return curve === 'prime256v1'
      ? 'ES256'
      : curve === 'secp384r1'
        ? 'ES384'
        : curve === 'secp521r1'
          ? 'ES512'
          : undefined;
  }
  return undefined;
}

const KEY_TYPES: Record<string, string[]> = {
  RS: ['rsa'],
  PS: ['rsa', 'rsa-pss'],
  ES: ['ec'],
  Ed: ['ed25519'],
};

/** A private key file as PKCS#8 PEM (what the signer takes) and its algorithm; errors say which file and why. */
export async function loadSigningKey(
  file: string,
  algorithm: string | undefined,
  env: Env,
): Promise<{ pem: string; algorithm: string }> {
  const home = homeDir(env);
  const path = file === '~' ? home : file.startsWith('~/') ? join(home, file.slice(2)) : file;
  if (!isAbsolute(path))
    throw new Error(`"oauth.privateKeyFile" must be an absolute path (or start with ~/), not ${file}`);
  let key: KeyObject;
  try {
    key = createPrivateKey(await readFile(path, 'utf8'));
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not a PEM private key';
    throw new Error(`cannot use "oauth.privateKeyFile" ${path}: ${reason}`);
  }
  const chosen = algorithm ?? defaultAlgorithm(key);
  if (!chosen)
    throw new Error(`the key in ${path} (${key.asymmetricKeyType}) needs "oauth.signingAlgorithm"`);
  if (!KEY_TYPES[chosen.slice(0, 2)]?.includes(key.asymmetricKeyType ?? ''))
    throw new Error(`the key in ${path} is ${key.asymmetricKeyType}, which cannot sign ${chosen}`);
  return { pem: key.export({ type: 'pkcs8', format: 'pem' }).toString(), algorithm: chosen };
}

/**
 * A signed assertion is good wherever its audience accepts it. The audience is the authorization
 * server's issuer, which its metadata states; metadata that names one issuer but sends the token
 * request to another origin would collect an assertion its author could replay at that issuer,
 * so Yoke signs only for the origin it sends to.
 */
export function assertionAudience(tokenUrl: URL, metadata: OAuthMetadata | undefined): string {
  const issuer = metadata?.issuer ?? tokenUrl.origin;
  let origin: string | undefined;
  try {
    origin = new URL(issuer).origin;
  } catch {
    origin = undefined;
  }
  if (origin !== tokenUrl.origin)
    throw new Error(
      `the authorization server's metadata names issuer ${issuer} but its token endpoint is ${tokenUrl.href}; Yoke signs no assertion for another origin`,
    );
  return issuer;
}

export type ServiceCredentials =
  | { method: 'client_secret_basic'; secret: string }
  | { method: 'private_key_jwt'; pem: string; algorithm: string };

/** The client's credentials from where the entry says they are; a missing one is one line. */
export async function readServiceCredentials(
  config: McpClientCredentialsConfig,
  env: Env,
): Promise<ServiceCredentials> {
  const auth = config.authentication;
  if (auth.method === 'private_key_jwt')
    return { method: 'private_key_jwt', ...(await loadSigningKey(auth.privateKeyFile, auth.algorithm, env)) };
  const secret = env[auth.secretEnv];
  if (!secret) throw new Error(`the client secret is read from $${auth.secretEnv}, which is not set`);
  return { method: 'client_secret_basic', secret };
}

export class ServiceClientProvider extends StoredOAuthProviderBase implements OAuthClientProvider {
  readonly addClientAuthentication: AddClientAuthentication | undefined;

  constructor(
    env: Env,
    key: string,
    server: string,
    private readonly config: McpClientCredentialsConfig,
    private readonly credentials: ServiceCredentials,
  ) {
    super(env, key, server, config.authServerMetadataUrl);
    if (credentials.method === 'private_key_jwt') {
      this.addClientAuthentication = async (headers, params, url, metadata) => {
        const { createPrivateKeyJwtAuth } = await import(
          '@modelcontextprotocol/sdk/client/auth-extensions.js'
        );
        const tokenUrl = new URL(String(url));
        const sign = createPrivateKeyJwtAuth({
          issuer: config.clientId,
          subject: config.clientId,
          privateKey: credentials.pem,
          alg: credentials.algorithm,
          audience: assertionAudience(tokenUrl, metadata as OAuthMetadata | undefined),
        });
        await sign(headers, params, url, metadata);
      };
    }
  }

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Yoke',
      redirect_uris: [],
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: this.credentials.method,
    };
  }

  /** The configured client, bound to the authorization server that first accepted it (the stored `issuer`). */
  override async clientInformation(): Promise<OAuthClientInformationMixed> {
    const issuer = (await this.read()).client?.issuer;
    return {
      client_id: this.config.clientId,
      ...(this.credentials.method === 'client_secret_basic'
        ? { client_secret: this.credentials.secret }
        : {}),
      ...(issuer ? { issuer } : {}),
    };
  }

  /** Only the binding is kept: the secret stays where the user put it. */
  override async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.update((stored) => ({
      ...stored,
      client: { client_id: client.client_id, ...(client.issuer ? { issuer: client.issuer } : {}) },
    }));
  }

  /** Token requests made for more scope since the call began (the SDK retries each refused call). */
  private stepUps = 0;

  override clearRefusal(): void {
    super.clearRefusal();
    this.stepUps = 0;
  }

  async prepareTokenRequest(): Promise<URLSearchParams> {
    if (this.refusal?.futile) throw new ScopeNotGrantedError(this.server, this.refusal.scope);
    if (this.refusal && this.stepUps++ >= MAX_STEP_UPS_PER_CALL) throw new StepUpLimitError(this.server);
    const stored = await this.read();
    const scope = unionScopes(this.config.scopes, stored.scope);
    await this.update((entry) => ({ ...entry, requestedScope: scope ?? '' }));
    return new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
  }

  redirectToAuthorization(): never {
    throw new Error(
      `MCP server "${this.server}" uses the client_credentials grant; there is no sign-in page`,
    );
  }
}
