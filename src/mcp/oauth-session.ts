/**
 * Which OAuth provider a session gives a server's transport: a userless client's own (it can
 * always get a token), the tokens of an earlier `yoke mcp login` (sent and refreshed), or none —
 * the server then answers 401 and is reported as needs-auth.
 */
import { readServiceCredentials, ServiceClientProvider } from './oauth-client-credentials';
import { hasStoredTokens, oauthKey, SessionTokenProvider } from './oauth-provider';
import type { McpServerConfig } from './server-config';

type Env = Readonly<Record<string, string | undefined>>;

export type SessionAuthProvider = ServiceClientProvider | SessionTokenProvider;

/** Throws one line when a userless client's credentials cannot be read (unset variable, bad key file). */
export async function sessionAuthProvider(
  name: string,
  config: McpServerConfig,
  env: Env,
): Promise<SessionAuthProvider | undefined> {
  if (config.type === 'stdio') return undefined;
  const key = oauthKey(name, config.url);
  if (config.oauth?.grantType === 'client_credentials')
    return new ServiceClientProvider(
      env,
      key,
      name,
      config.oauth,
      await readServiceCredentials(config.oauth, env),
    );
  if (!(await hasStoredTokens(env, key))) return undefined;
  return new SessionTokenProvider(env, key, name, config.oauth?.authServerMetadataUrl);
}
