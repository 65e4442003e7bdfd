/**
 * `oauth.authServerMetadataUrl` (Claude Code's key): the authorization server's metadata is read
 * from this address instead of being discovered through the MCP server (RFC 9728, then the RFC
 * 8414 well-known paths). It exists for servers whose discovery is missing or wrong, so it may
 * point anywhere — and the entry may come from a project's `.mcp.json`, which is untrusted.
 *
 * What keeps that safe is the issuer. Tokens are stamped with the issuer that granted them (the
 * MCP SDK, and SessionTokenProvider's refresh, send a stamped token to that issuer only), so the
 * issuer must be one the document is entitled to speak for: its `issuer` must be on the origin
 * the document was fetched from over TLS (an authorization server publishes its own metadata),
 * and equal to the issuer a well-known address encodes (RFC 8414 §3.3, OpenID Discovery §4.3).
 * A planted address can then name only its own host as issuer: a sign-in there is a sign-in with
 * that host, in the open, and the tokens of the server's real authorization server never go to it.
 */
import type { OAuthMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { isSecureOrLoopback, parseUrl } from './oauth-config';

/** The metadata read from `oauth.authServerMetadataUrl`, its issuer checked. */
export type PinnedAuthServer = { issuer: string; metadata: OAuthMetadata };

const WELL_KNOWN = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];

/** The issuer a well-known metadata address stands for, or undefined for any other address. */
export function issuerOfWellKnown(url: URL): string | undefined {
  for (const suffix of WELL_KNOWN) {
    // RFC 8414 inserts the well-known segment before the issuer's path…
    if (url.pathname === suffix || url.pathname.startsWith(`${suffix}/`))
      return url.origin + url.pathname.slice(suffix.length);
  }
  // …and OpenID Connect appends it.
  const oidc = WELL_KNOWN[1] as string;
  if (url.pathname.endsWith(oidc)) return url.origin + url.pathname.slice(0, -oidc.length);
  return undefined;
}

/** Issuer identifiers compared as RFC 8414 wants (identical), forgiving only a root path's slash. */
export const sameIssuer = (a: string, b: string) => a.replace(/\/$/, '') === b.replace(/\/$/, '');

/** Why this document cannot be trusted for sign-ins, in one line; undefined when it can. */
export function metadataProblem(address: URL, metadata: OAuthMetadata): string | undefined {
  const issuer = parseUrl(metadata.issuer);
  if (!issuer || !isSecureOrLoopback(issuer) || issuer.search || issuer.hash)
    return `its "issuer" (${String(metadata.issuer)}) is not an https URL without query or fragment`;
  if (issuer.origin !== address.origin)
    return `its "issuer" ${metadata.issuer} is not on ${address.origin}, where it was read; an authorization server publishes its own metadata, so Yoke does not send it tokens`;
  const expected = issuerOfWellKnown(address);
  if (expected !== undefined && !sameIssuer(expected, metadata.issuer))
    return `its "issuer" ${metadata.issuer} is not ${expected}, the issuer this well-known address is for (RFC 8414)`;
  for (const field of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint'] as const) {
    const value = metadata[field];
    if (value === undefined) continue;
    const endpoint = parseUrl(value);
    if (!endpoint || !isSecureOrLoopback(endpoint)) return `its "${field}" (${value}) is not an https URL`;
  }
  return undefined;
}

/**
 * Reads and checks the metadata; throws one line naming the server and what is wrong. Redirects
 * are not followed: the issuer is checked against the address the document really came from.
 */
export async function fetchPinnedAuthServer(
  server: string,
  address: string,
  signal?: AbortSignal,
): Promise<PinnedAuthServer> {
  const url = new URL(address);
  const fail = (why: string) =>
    new Error(
      `MCP server "${server}": the authorization server metadata at ${url.href} (oauth.authServerMetadataUrl) ${why}`,
    );
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    throw fail(`could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (response.status >= 300 && response.status < 400)
    throw fail(`redirects elsewhere (HTTP ${response.status}); give the final address`);
  if (!response.ok) throw fail(`could not be read (HTTP ${response.status})`);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw fail('is not JSON');
  }
  const { OAuthMetadataSchema } = await import('@modelcontextprotocol/sdk/shared/auth.js');
  const parsed = OAuthMetadataSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw fail(
      `is not authorization server metadata (${issue ? `${issue.path.join('.') || 'document'}: ${issue.message}` : 'invalid'})`,
    );
  }
  const problem = metadataProblem(url, parsed.data);
  if (problem) throw fail(`is refused: ${problem}`);
  return { issuer: parsed.data.issuer, metadata: parsed.data };
}
