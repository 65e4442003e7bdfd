/**
 * Which hosts WebFetch may reach. A model that can be steered by page content must not be able
 * to probe the user's own machine or network (a router admin page, a cloud metadata endpoint),
 * so loopback, private and link-local addresses are refused unless the user allowed the host.
 * Every spelling of an address is normalized before the decision (ip-ranges.ts). This module
 * gives the early answer for a URL; the connection itself is checked again when it is made
 * (connection-guard.ts), because a DNS answer can change between the two (rebinding).
 */
import { isIP } from 'node:net';
import { ToolError } from '../../tool';
import { nonPublicReason } from './ip-ranges';

export type ResolvedAddress = { address: string; family: 4 | 6 };
export type LookupAll = (hostname: string) => Promise<ResolvedAddress[]>;

const defaultLookup: LookupAll = async (hostname) =>
  // Loaded on first use: this module sits on the start path.
  (await process.getBuiltinModule('node:dns/promises').lookup(hostname, { all: true, verbatim: true })).map(
    (entry) => ({
      address: entry.address,
      family: entry.family === 6 ? 6 : 4,
    }),
  );

/** The `webFetch.allowedHosts` entries (`host` or `host:port`) as `isAllowedHost` compares them. */
export function normalizeAllowedHosts(entries: readonly string[]): string[] {
  return entries.map((entry) => entry.trim().toLowerCase()).filter(Boolean);
}

/** The hostname without IPv6 brackets, lowercased. */
export function bareHostname(url: URL): string {
  const host = url.hostname.toLowerCase();
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function effectivePort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/** True when the user allowed this host (any port) or this exact `host:port`. */
export function isAllowedHost(url: URL, allowPrivateHosts: readonly string[]): boolean {
  const host = bareHostname(url);
  const port = effectivePort(url);
  return allowPrivateHosts.some((entry) => {
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) return bracketed[1] === host && (!bracketed[2] || bracketed[2] === port);
    // A bare IPv6 address has several colons and no port.
    if (isIP(entry) === 6) return entry === host;
    const colon = entry.lastIndexOf(':');
    if (colon === -1) return entry === host;
    return entry.slice(0, colon) === host && entry.slice(colon + 1) === port;
  });
}

/** Loopback, private, link-local or otherwise not a public internet address, in any spelling. */
export function isPrivateAddress(address: string): boolean {
  return nonPublicReason(address) !== undefined;
}

function isLocalName(host: string): boolean {
  // `localhost.` is `localhost`: a trailing dot only marks the name as fully qualified.
  const name = host.replace(/\.$/, '');
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name.endsWith('.local') ||
    name.endsWith('.internal')
  );
}

/** The refusal for a host WebFetch does not reach; `detail` completes "<host> …". */
export function refusal(host: string, detail: string): ToolError {
  return new ToolError(
    `${host} ${detail}, which WebFetch does not reach: it only fetches public web pages. ` +
      'The user can allow this host with the webFetch.allowedHosts setting.',
  );
}

/** Throws the refusal when one of the addresses a name resolved to is not public. */
export function checkResolved(host: string, addresses: readonly ResolvedAddress[]): void {
  for (const { address } of addresses) {
    const reason = nonPublicReason(address);
    if (reason) throw refusal(host, `resolves to ${address}, ${reason}`);
  }
}

/** Resolves `host`, turning a resolver failure into a readable error. */
export async function resolveHost(
  host: string,
  lookup: LookupAll = defaultLookup,
): Promise<ResolvedAddress[]> {
  let addresses: ResolvedAddress[];
  try {
    addresses = await lookup(host);
  } catch (error) {
    throw new ToolError(`Could not resolve ${host}: ${(error as Error).message}. Check the URL.`);
  }
  if (addresses.length === 0) throw new ToolError(`Could not resolve ${host}. Check the URL.`);
  return addresses;
}

/**
 * Checks that `url` may be fetched, before any connection is made. Throws a ToolError for a
 * scheme other than http(s), or for a host that is (or now resolves to) an address that is not
 * public and is not in `allowPrivateHosts`.
 */
export async function checkFetchTarget(
  url: URL,
  allowPrivateHosts: readonly string[],
  lookup: LookupAll = defaultLookup,
): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError(`WebFetch only fetches http and https URLs, not ${url.protocol.replace(/:$/, '')}.`);
  }
  if (url.username || url.password) {
    throw new ToolError(
      'URLs with a user name or password are not fetched; remove the credentials from the URL.',
    );
  }
  const host = bareHostname(url);
  const allowed = isAllowedHost(url, allowPrivateHosts);
  const literal = isIP(host);
  if (literal) {
    const reason = allowed ? undefined : nonPublicReason(host);
    if (reason) throw refusal(host, `is ${reason}`);
    return;
  }
  if (!allowed && isLocalName(host)) throw refusal(host, 'is a local host name');
  const addresses = await resolveHost(host, lookup);
  if (!allowed) checkResolved(host, addresses);
}
