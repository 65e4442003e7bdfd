/**
 * OAuth scopes as MCP servers ask for them: a 401 or a 403 `insufficient_scope` challenge names
 * the scope an operation needs (`WWW-Authenticate: Bearer error="insufficient_scope",
 * scope="files:read files:write"`). Yoke asks the authorization server for the union of every
 * scope the server has named, so stepping up for one tool never loses what another needed.
 */

/** A scope token as RFC 6749 §3.3 allows it (printable ASCII without space, `"` and `\`). */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** The scopes of space-separated lists, each once, in first-seen order; malformed tokens are dropped. */
export function scopeList(...lists: (string | undefined)[]): string[] {
  const out: string[] = [];
  for (const list of lists)
    for (const scope of (list ?? '').split(/\s+/))
      if (SCOPE_TOKEN.test(scope) && !out.includes(scope)) out.push(scope);
  return out;
}

/** The union of space-separated scope lists, or undefined when there is none. */
export function unionScopes(...lists: (string | undefined)[]): string | undefined {
  const all = scopeList(...lists);
  return all.length > 0 ? all.join(' ') : undefined;
}

/** Whether every scope of `wanted` is in `held`. */
export function coversScopes(held: string | undefined, wanted: string | undefined): boolean {
  const have = scopeList(held);
  return scopeList(wanted).every((scope) => have.includes(scope));
}

/** What a 403 challenge says: the server refuses for want of scope (maybe naming it). */
export type ScopeChallenge = { scope: string | undefined };

/** The parameter `name` of a `WWW-Authenticate: Bearer …` header (quoted or token form). */
function challengeParameter(header: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|[\\s,])${name}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^\\s,]+))`, 'i').exec(header);
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2];
}

/** The insufficient-scope challenge of a response, if it is one (RFC 6750 §3.1). */
export function insufficientScope(response: Response): ScopeChallenge | undefined {
  if (response.status !== 403) return undefined;
  const header = response.headers.get('www-authenticate');
  if (!header || !/^\s*bearer\b/i.test(header)) return undefined;
  if (challengeParameter(header, 'error') !== 'insufficient_scope') return undefined;
  return { scope: challengeParameter(header, 'scope') };
}

/**
 * A fetch for an MCP transport that reports every insufficient-scope challenge before the
 * transport sees the response: the OAuth provider must know a call was refused for scope before
 * the SDK asks it for new tokens (a refresh cannot widen scope; only a new sign-in can).
 */
export function watchScopeChallenges(
  onChallenge: (challenge: ScopeChallenge) => Promise<void>,
  base: typeof fetch = fetch,
): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    const challenge = insufficientScope(response);
    if (challenge) await onChallenge(challenge);
    return response;
  };
}
