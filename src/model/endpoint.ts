/**
 * Where a provider sends its requests and which settings put it there. Errors that a retry cannot
 * fix (a server that is not running, a wrong key, a page that is not the API) name the variable
 * or setting to change, so the user knows what to do instead of reading a stack of causes.
 */

export type ApiKind = 'anthropic' | 'openai';

export type Endpoint = {
  api: ApiKind;
  /** The base URL requests go to. */
  baseUrl: string;
  /**
   * What chose the base URL: an environment variable name, `the "baseUrl" setting`, or undefined
   * when it is the API's default address.
   */
  baseUrlSource?: string;
  /** The variables the credential in use came from (empty for a keyless local server). */
  keyVariables: readonly string[];
};

/** The variable a user sets to point a provider elsewhere. */
export const BASE_URL_VARIABLE: Record<ApiKind, string> = {
  anthropic: 'ANTHROPIC_BASE_URL',
  openai: 'OPENAI_BASE_URL',
};

/** The name of the API for messages: the official one, or "the server at …" for anything else. */
export function apiName(endpoint: Endpoint): string {
  if (endpoint.baseUrlSource === undefined) {
    return endpoint.api === 'anthropic' ? 'the Anthropic API' : 'the OpenAI API';
  }
  return `the server at ${endpoint.baseUrl}`;
}

/** "(set by OPENAI_BASE_URL)" or "" for the default address. */
export function baseUrlOrigin(endpoint: Endpoint): string {
  return endpoint.baseUrlSource === undefined ? '' : ` (set by ${endpoint.baseUrlSource})`;
}

/**
 * True for hosts that are this machine or a private network: such servers (Ollama, vLLM,
 * LM Studio) need no API key, and a model there may take minutes to load. Anything unparsable
 * counts as not local.
 */
export function isLocalBaseUrl(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return true;
  if (host === '::1' || host === '0.0.0.0') return true;
  // IPv6 unique-local (fc00::/7) and link-local (fe80::/10) addresses.
  if (/^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host)) return true;
  const octets = host.split('.');
  if (octets.length !== 4 || !octets.every((o) => /^\d{1,3}$/.test(o))) return false;
  const [a, b] = octets.map(Number) as [number, number];
  return (
    a === 127 ||
    a === 10 ||
    (a === 192 && b === 168) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 169 && b === 254)
  );
}

/**
 * Why a configured base URL cannot be used, or undefined when it is an http(s) address. The
 * usual slip is leaving out the scheme (`localhost:11434/v1`), which URL parsing reads as a scheme
 * called `localhost:` or rejects: left to the request, that surfaced as "Invalid URL" or as a
 * missing key (an address that does not parse is not known to be local).
 */
export function baseUrlProblem(url: string, source: string): string | undefined {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(url)
    ? url.slice(0, url.indexOf(':')).toLowerCase()
    : undefined;
  if ((scheme === 'http' || scheme === 'https') && URL.canParse(url)) return undefined;
  const named = source.startsWith('the ') ? `${source} (${JSON.stringify(url)})` : `${source}=${url}`;
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https')
    return `${named} is not an http(s) address: the ${scheme}: scheme is not supported.`;
  const guess = `${isLocalBaseUrl(`http://${url}`) ? 'http' : 'https'}://${url}`;
  const example = URL.canParse(guess) ? guess : 'http://localhost:11434/v1';
  return `${named} is not an http(s) address: write it with its scheme, e.g. ${example}.`;
}
