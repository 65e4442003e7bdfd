/**
 * Which hosts WebFetch may reach. A model that can be steered by page content must not be able
 * to probe the user's own machine or network (a router admin page, a cloud metadata endpoint),
 * so loopback, private and link-local addresses are refused unless the user allowed the host.
 * Names are resolved here and the connection is pinned to the checked addresses, so a DNS answer
 * that changes between check and connect (rebinding) cannot slip through.
 */
import { isIP } from 'node:net';
import { ToolError } from '../../tool';

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

/** Parses the comma-separated `host[:port]` list of YOKE_WEBFETCH_ALLOW_HOSTS. */
export function parseAllowedHosts(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
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

function ipv4Private(address: string): boolean {
  const [a = 0, b = 0] = address.split('.').map(Number);
  return (
    a === 0 || // "this network"; 0.0.0.0 reaches the local machine
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, including cloud metadata at 169.254.169.254
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224 // multicast and reserved
  );
}

/** Loopback, private, link-local or otherwise not a public internet address. */
export function isPrivateAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return ipv4Private(address);
  if (version !== 6) return true;
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return ipv4Private(mapped[1]!);
  if (lower === '::1' || lower === '::') return true;
  const first = Number.parseInt(lower.split(':')[0] || '0', 16);
  return (
    (first & 0xfe00) === 0xfc00 || // fc00::/7 unique local
    (first & 0xffc0) === 0xfe80 || // fe80::/10 link-local
    (first & 0xff00) === 0xff00 // multicast
  );
}

function isLocalName(host: string): boolean {
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal')
  );
}

/**
 * Checks that `url` may be fetched and returns the addresses to connect to. Throws a ToolError
 * for a scheme other than http(s), or for a host that is (or resolves to) a private address
 * and is not in `allowPrivateHosts`.
 */
export async function checkFetchTarget(
  url: URL,
  allowPrivateHosts: readonly string[],
  lookup: LookupAll = defaultLookup,
): Promise<ResolvedAddress[]> {
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
  const refuse = (detail: string) =>
    new ToolError(
      `${host} ${detail}, which WebFetch does not reach: it only fetches public web pages. ` +
        'The user can allow this host with YOKE_WEBFETCH_ALLOW_HOSTS.',
    );

  const literal = isIP(host);
  if (literal) {
    if (!allowed && isPrivateAddress(host)) throw refuse('is a private or loopback address');
    return [{ address: host, family: literal === 6 ? 6 : 4 }];
  }
  if (!allowed && isLocalName(host)) throw refuse('is a local host name');
  let addresses: ResolvedAddress[];
  try {
    addresses = await lookup(host);
  } catch (error) {
    throw new ToolError(`Could not resolve ${host}: ${(error as Error).message}. Check the URL.`);
  }
  if (addresses.length === 0) throw new ToolError(`Could not resolve ${host}. Check the URL.`);
  if (!allowed) {
    const blocked = addresses.find((entry) => isPrivateAddress(entry.address));
    if (blocked) throw refuse(`resolves to the private address ${blocked.address}`);
  }
  return addresses;
}
