/**
 * `WebFetch(domain:…)` rules against the other spellings of one host: a trailing dot (also
 * percent-encoded), upper case, punycode and Unicode, an IPv4-mapped IPv6 address. A deny rule
 * holds against each (bypassPermissions would run what it misses); an allow rule covers each as
 * it covers the plain name; a look-alike stays a different host.
 *
 * Calibration, run for real: `dns.lookup('registry.npmjs.org.')` gave the same address as
 * `registry.npmjs.org`, and `fetch('https://registry.npmjs.org./-/ping')` answered 200 — the
 * absolute DNS form reaches the same host, and before this set `https://evil.io./` slipped past
 * `WebFetch(domain:evil.io)` (allowed in bypassPermissions). The mapped address and the URL
 * parser's spellings are calibrated offline below.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { type CorpusCase, caseLabel, runCase } from './corpus-test-support';
import { canonicalHost } from './web-host';

const fetchOf = (url: string, extra: Partial<CorpusCase>): CorpusCase => ({
  tool: 'WebFetch',
  input: { url, prompt: 'x' },
  expect: 'deny',
  ...extra,
});

const denyEvil: Partial<CorpusCase> = { deny: ['WebFetch(domain:evil.io)'], mode: 'bypassPermissions' };

const CASES: CorpusCase[] = [
  ...[
    'https://evil.io./',
    'https://a.evil.io./x',
    'https://evil.io.:443/',
    'https://evil.io%2e/',
    'https://EVIL.IO/',
    'https://good.com@evil.io/',
  ].map((url) => fetchOf(url, denyEvil)),
  ...['https://évil.io/', 'https://xn--vil-9la.io/', 'https://ÉVIL.io./'].map((url) =>
    fetchOf(url, { deny: ['WebFetch(domain:évil.io)'], mode: 'bypassPermissions' }),
  ),
  fetchOf('http://[::ffff:127.0.0.1]:8080/', {
    deny: ['WebFetch(domain:127.0.0.1)'],
    mode: 'bypassPermissions',
  }),
  fetchOf('http://[::ffff:7f00:1]/', { deny: ['WebFetch(domain:127.0.0.1)'], mode: 'bypassPermissions' }),
  // Controls: another host is not the denied one; allow rules cover the same spellings.
  fetchOf('https://évil.io/', { ...denyEvil, expect: 'allow' }),
  fetchOf('https://evil.io.example.com/', { ...denyEvil, expect: 'allow' }),
  fetchOf('https://docs.example.com./', { allow: ['WebFetch(domain:example.com)'], expect: 'allow' }),
  fetchOf('https://xn--bcher-kva.example/', { allow: ['WebFetch(domain:bücher.example)'], expect: 'allow' }),
  fetchOf('https://example.com.evil.io/', { allow: ['WebFetch(domain:example.com)'], expect: 'ask' }),
  fetchOf('https://example.com./', { allow: ['WebFetch(domain:*.example.com)'], expect: 'ask' }),
];

describe('WebFetch domain rules and the spellings of a host', () => {
  it.each(CASES.map((c) => [caseLabel(c), c] as const))('%s', async (_label, c) => {
    expect(await runCase(c)).toBe(c.expect);
  });

  it('the URL parser hands the rule these spellings (calibration)', () => {
    expect(new URL('https://évil.io/').hostname).toBe('xn--vil-9la.io');
    expect(new URL('https://evil.io%2e/').hostname).toBe('evil.io.');
    expect(new URL('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
    expect(['evil.io.', 'ÉVIL.io', '[::ffff:7f00:1]', '[::1]'].map(canonicalHost)).toEqual([
      'evil.io',
      'xn--vil-9la.io',
      '127.0.0.1',
      '[::1]',
    ]);
  });

  it('an IPv4-mapped address reaches a server listening on the IPv4 address (calibration)', async () => {
    const hosts: string[] = [];
    const server = createServer((request, response) => {
      hosts.push(request.socket.localAddress ?? '');
      response.end('reached');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://[::ffff:127.0.0.1]:${port}/`);
      expect(await response.text()).toBe('reached');
      expect(hosts).toEqual(['127.0.0.1']);
    } finally {
      server.close();
    }
  });
});
