/**
 * Red-team pass on WebFetch's address check: a server listens on 127.0.0.1 and is reachable
 * there (a plain request gets its answer), yet every other spelling of a loopback, private,
 * link-local or embedded-private address is refused before any connection — IPv4 in decimal,
 * hex, octal and short forms, IPv4-mapped, -compatible and -translated IPv6, NAT64, 6to4,
 * Teredo — and so is a name that resolves to one. (A zone id, `[fe80::1%25lo]`, is not a URL.)
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFetchTarget, type LookupAll } from './address-policy';

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((_, res) => res.end('LOCAL-SECRET'));
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

/** Names resolve to the local server (a rebinding or a planted DNS answer). */
const toLoopback: LookupAll = async () => [{ address: '127.0.0.1', family: 4 }];

const SPELLINGS = [
  '127.1',
  '2130706433',
  '0x7f000001',
  '0177.0.0.1',
  '0x7f.1',
  '0x7f.0x0.0x0.0x1',
  '127.000.000.001',
  '0',
  '0.0.0.0',
  '[::1]',
  '[0:0:0:0:0:0:0:1]',
  '[0000::1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[::ffff:7f00:0001]',
  '[0:0:0:0:0:ffff:127.0.0.1]',
  '[::127.0.0.1]',
  '[::ffff:0:7f00:1]',
  '[64:ff9b::127.0.0.1]',
  '[64:ff9b:1::7f00:1]',
  '[2002:7f00:1::]',
  '[2001:0:4136:e378:8000:63bf:80ff:fffe]',
  '[::]',
  '[::ffff:a9fe:a9fe]',
  '169.254.169.254',
  '100.64.0.1',
  '10.0.0.1',
  '172.16.0.1',
  '192.168.1.1',
  '[fd00::1]',
  '[fec0::1]',
  '[::a00:1]',
  '[64:ff9b::a00:1]',
  '[2002:a00:1::]',
  '①②⑦.0.0.1',
  '127。0。0。1',
  '%31%32%37.0.0.1',
  'localhost',
  'LOCALHOST.',
  'foo.localhost',
];

describe('WebFetch address forms', () => {
  it('reaches the local server by its plain address when nothing checks (the target is live)', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/`);
    expect(await response.text()).toBe('LOCAL-SECRET');
  });

  it.each(SPELLINGS)('refuses http://%s before connecting', async (host) => {
    const url = new URL(`http://${host}:${port}/`);
    await expect(checkFetchTarget(url, [], toLoopback)).rejects.toThrow(/WebFetch does not reach/);
  });

  it('refuses a public-looking name that resolves to the local server', async () => {
    for (const name of ['127.0.0.1.nip.io', 'localtest.me', 'evil.example.com'])
      await expect(checkFetchTarget(new URL(`http://${name}:${port}/`), [], toLoopback)).rejects.toThrow(
        /resolves to 127\.0\.0\.1/,
      );
  });

  it('lets a public address through', async () => {
    await expect(checkFetchTarget(new URL('https://1.1.1.1/'), [], toLoopback)).resolves.toBeUndefined();
  });
});
