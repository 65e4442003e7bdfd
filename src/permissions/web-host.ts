/**
 * Hosts as a `WebFetch(domain:…)` rule compares them. A URL can name one host in several ways
 * that all reach it — `evil.com.` (the absolute DNS form, a trailing dot), `évil.com` and its
 * punycode `xn--vil-9la.com`, `[::ffff:127.0.0.1]` for 127.0.0.1 — so the rule's domain and the
 * URL's host are both brought to one spelling before they are compared: lower-case ASCII
 * (punycode), no trailing dot, an IPv4-mapped IPv6 address as its IPv4 address.
 */
import { domainToASCII } from 'node:url';

/** `::ffff:a.b.c.d`, as the URL parser writes it (`[::ffff:7f00:1]`). */
const MAPPED_IPV4 = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/;

/** One spelling of a host name or address; `undefined` for an empty one. */
export function canonicalHost(host: string): string | undefined {
  const lower = host.trim().toLowerCase();
  const mapped = MAPPED_IPV4.exec(lower);
  if (mapped) {
    const [high, low] = [Number.parseInt(mapped[1] as string, 16), Number.parseInt(mapped[2] as string, 16)];
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  const bare = lower.replace(/\.+$/, '');
  if (bare === '' || bare.startsWith('[')) return bare || undefined;
  // Invalid names (`domainToASCII` gives '') are compared as written.
  return domainToASCII(bare) || bare;
}

/** The host of a URL in its one spelling, or undefined when the input is no URL. */
export function hostOfUrl(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    return canonicalHost(new URL(url).hostname);
  } catch {
    return undefined;
  }
}
