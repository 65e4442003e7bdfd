/**
 * `${VAR}` and `${VAR:-default}` in a server's command, args, env, url and headers (compat-surface
 * §6), and in the path of a userless client's key file (`oauth.privateKeyFile`). A bare `$VAR` stays as written. A variable that is unset and has no default is an error
 * naming it, rather than an empty string that fails later in a way nobody can trace.
 */
import type { McpOAuthConfig } from './oauth-config';
import type { McpServerConfig } from './server-config';

type Env = Readonly<Record<string, string | undefined>>;

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export function expandVariables(text: string, env: Env, missing: Set<string>): string {
  return text.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    if (value === undefined) missing.add(name);
    return '';
  });
}

const expandRecord = (record: Record<string, string>, env: Env, missing: Set<string>) =>
  Object.fromEntries(
    Object.entries(record).map(([key, value]) => [key, expandVariables(value, env, missing)]),
  );

function expandOAuth(oauth: McpOAuthConfig, env: Env, missing: Set<string>): McpOAuthConfig {
  if (oauth.grantType !== 'client_credentials' || oauth.authentication.method !== 'private_key_jwt')
    return oauth;
  const privateKeyFile = expandVariables(oauth.authentication.privateKeyFile, env, missing);
  return { ...oauth, authentication: { ...oauth.authentication, privateKeyFile } };
}

/** The config with every reference expanded, or the names of the variables that are unset. */
export function expandServerConfig(
  config: McpServerConfig,
  env: Env,
): { ok: true; config: McpServerConfig } | { ok: false; missing: string[] } {
  const missing = new Set<string>();
  const expanded: McpServerConfig =
    config.type === 'stdio'
      ? {
          ...config,
          command: expandVariables(config.command, env, missing),
          args: config.args.map((arg) => expandVariables(arg, env, missing)),
          env: expandRecord(config.env, env, missing),
          ...(config.cwd !== undefined ? { cwd: expandVariables(config.cwd, env, missing) } : {}),
        }
      : {
          ...config,
          url: expandVariables(config.url, env, missing),
          headers: expandRecord(config.headers, env, missing),
          ...(config.oauth ? { oauth: expandOAuth(config.oauth, env, missing) } : {}),
        };
  return missing.size > 0 ? { ok: false, missing: [...missing].sort() } : { ok: true, config: expanded };
}
