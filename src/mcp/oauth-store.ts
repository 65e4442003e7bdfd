/**
 * What OAuth needs to remember per server — the registered client, the tokens, the PKCE verifier
 * of a sign-in in progress, and the scopes the server has asked for — kept in Yoke's user state
 * (`mcpOAuth`), a file written with mode 0600. The key includes the URL, so a server moved
 * elsewhere never receives another server's token. Secrets of userless clients are never stored
 * here (they come from the environment or a key file each time); their tokens are.
 */
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { readUserState, updateUserState } from '../config/user-state';
import { isJsonObject, type JsonObject } from '../lib/json-object';

type Env = Readonly<Record<string, string | undefined>>;

export type StoredOAuth = {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  codeVerifier?: string;
  /** Every scope the server has named or Yoke has asked for, space-separated: asked for again each time. */
  scope?: string;
  /** The scope the sign-in (or token request) in progress asks for. */
  requestedScope?: string;
  /** The scope asked for when the stored tokens were obtained. */
  tokenScope?: string;
  /** The `oauth.scopes` pin `scope` was gathered under (absent: gathered from the server's suggestions). */
  scopePin?: string;
  /** A call was refused for want of this scope since then: the next sign-in asks for `scope`. */
  stepUp?: string;
};

export const oauthKey = (server: string, url: string): string => `${server}|${url}`;

export async function readStored(env: Env, key: string): Promise<StoredOAuth> {
  const { state } = await readUserState(env);
  const all = state.mcpOAuth;
  const entry = isJsonObject(all) ? all[key] : undefined;
  return isJsonObject(entry) ? (entry as StoredOAuth) : {};
}

export async function updateStored(
  env: Env,
  key: string,
  change: (stored: StoredOAuth) => StoredOAuth,
): Promise<void> {
  await updateUserState(env, (state) => {
    const all: JsonObject = isJsonObject(state.mcpOAuth) ? state.mcpOAuth : {};
    const entry = isJsonObject(all[key]) ? (all[key] as StoredOAuth) : {};
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
