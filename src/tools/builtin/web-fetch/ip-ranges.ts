/**
 * Which IP addresses are on the public internet. Every spelling of an address is reduced to its
 * numeric value first, and IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-compatible,
 * SIIT-translated, NAT64, 6to4, Teredo) are judged by the IPv4 address inside: `::ffff:7f00:1`
 * reaches 127.0.0.1 as surely as `127.0.0.1` does. The ranges follow the IANA special-purpose
 * registries (RFC 6890 and its updates): whatever is not globally reachable is refused.
 */
import { isIP } from 'node:net';

type Range4 = { base: number; bits: number; what: string };

const v4 = (text: string, bits: number, what: string): Range4 => ({
  base: ipv4Number(text) as number,
  bits,
  what,
});

const IPV4_RANGES: readonly Range4[] = [
  v4('0.0.0.0', 8, 'a "this network" address (0.0.0.0 reaches the local machine)'),
  v4('10.0.0.0', 8, 'a private network address'),
  v4('100.64.0.0', 10, 'a carrier-grade NAT address'),
  v4('127.0.0.0', 8, 'a loopback address'),
  v4('169.254.0.0', 16, 'a link-local address (cloud metadata lives at 169.254.169.254)'),
  v4('172.16.0.0', 12, 'a private network address'),
  v4('192.0.0.0', 24, 'an IETF protocol address'),
  v4('192.0.2.0', 24, 'a documentation address'),
  v4('192.168.0.0', 16, 'a private network address'),
  v4('198.18.0.0', 15, 'a benchmarking address'),
  v4('198.51.100.0', 24, 'a documentation address'),
  v4('203.0.113.0', 24, 'a documentation address'),
  v4('224.0.0.0', 4, 'a multicast address'),
  v4('255.255.255.255', 32, 'the broadcast address'),
  v4('240.0.0.0', 4, 'a reserved address'),
];

/** A strict dotted quad (what `isIP` accepts) as an unsigned 32-bit number. */
function ipv4Number(text: string): number | undefined {
  if (isIP(text) !== 4) return undefined;
  return text.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

function ipv4Text(value: number): string {
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].join('.');
}

function ipv4Reason(value: number): string | undefined {
  for (const range of IPV4_RANGES) {
    const shift = 32 - range.bits;
    // Division instead of >>> keeps the arithmetic unsigned for /0–/32 alike.
    if (Math.floor(value / 2 ** shift) === Math.floor(range.base / 2 ** shift)) return range.what;
  }
  return undefined;
}

/** Eight 16-bit groups, or undefined when `text` is not an IPv6 address (a zone id is ignored). */
export function ipv6Groups(text: string): number[] | undefined {
  const bare = text.replace(/%.*$/, '');
  if (isIP(bare) !== 6) return undefined;
  let head = bare;
  const tail: number[] = [];
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (quad) {
    const value = ipv4Number(quad[1] as string) as number;
    tail.push(value >>> 16, value & 0xffff);
    head = bare.slice(0, -(quad[1] as string).length);
    // `::1.2.3.4` leaves `::`; `::ffff:1.2.3.4` leaves `::ffff:`.
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
  const gap = head.indexOf('::');
  const groups =
    gap === -1
      ? [...parse(head), ...tail]
      : (() => {
          const left = parse(head.slice(0, gap));
          const right = [...parse(head.slice(gap + 2)), ...tail];
          return [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
        })();
  return groups.length === 8 ? groups : undefined;
}

const embedded = (high: number, low: number) => high * 0x10000 + low;

/** An IPv6 address that carries an IPv4 one, judged by what it carries. */
function embeddedReason(form: string, value: number): string | undefined {
  const reason = ipv4Reason(value);
  return reason && `${form} of ${ipv4Text(value)}, ${reason}`;
}

function ipv6Reason(g: number[]): string | undefined {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const zeroTo = (end: number) => g.slice(0, end).every((group) => group === 0);
  if (zeroTo(8)) return 'the unspecified address';
  if (zeroTo(7) && g7 === 1) return 'the loopback address';
  if (zeroTo(5) && g5 === 0xffff) return embeddedReason('the IPv4-mapped form', embedded(g6, g7));
  if (zeroTo(4) && g4 === 0xffff && g5 === 0)
    return embeddedReason('the IPv4-translated form', embedded(g6, g7));
  // Deprecated, but a stack that still routes it reaches the IPv4 address.
  if (zeroTo(6)) return embeddedReason('the IPv4-compatible form', embedded(g6, g7));
  if (g0 === 0x64 && g1 === 0xff9b) {
    if (g2 === 1) return 'a local-use NAT64 address (64:ff9b:1::/48)';
    if (g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
      return embeddedReason('the NAT64 form', embedded(g6, g7));
  }
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return 'a discard-only address (100::/64)';
  if (g0 === 0x2001 && g1 === 0) {
    // Teredo: the server's IPv4 address in groups 2–3, the client's (bit-inverted) in groups 6–7.
    return (
      embeddedReason('the Teredo form', embedded(g2, g3)) ??
      embeddedReason('the Teredo form', embedded(g6 ^ 0xffff, g7 ^ 0xffff))
    );
  }
  if (g0 === 0x2001 && g1 === 0x0db8) return 'a documentation address (2001:db8::/32)';
  if (g0 === 0x2001 && (g1 & 0xfff0) === 0x0010) return 'an ORCHID address (2001:10::/28)';
  if (g0 === 0x2001 && (g1 & 0xfff0) === 0x0020) return 'an ORCHIDv2 address (2001:20::/28)';
  if (g0 === 0x2002) return embeddedReason('the 6to4 form', embedded(g1, g2));
  if (g0 === 0x3fff && (g1 & 0xf000) === 0) return 'a documentation address (3fff::/20)';
  if (g0 === 0x5f00) return 'a segment-routing address (5f00::/16)';
  if ((g0 & 0xfe00) === 0xfc00) return 'a unique-local address (fc00::/7)';
  if ((g0 & 0xffc0) === 0xfe80) return 'a link-local address (fe80::/10)';
  if ((g0 & 0xffc0) === 0xfec0) return 'a site-local address (fec0::/10)';
  if ((g0 & 0xff00) === 0xff00) return 'a multicast address (ff00::/8)';
  return undefined;
}

/**
 * Why `address` is not a public internet address, as a phrase that completes "X is …" (e.g.
 * "the IPv4-mapped form of 127.0.0.1, a loopback address"), or undefined when it is public.
 * Text that is not an IP address at all is never public.
 */
export function nonPublicReason(address: string): string | undefined {
  const value = ipv4Number(address);
  if (value !== undefined) return ipv4Reason(value);
  const groups = ipv6Groups(address);
  if (!groups) return 'not an IP address';
  return ipv6Reason(groups);
}
