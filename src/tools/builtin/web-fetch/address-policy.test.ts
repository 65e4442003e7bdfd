import { describe, expect, it } from 'vitest';
import { ToolError } from '../../tool';
import {
  checkFetchTarget,
  isAllowedHost,
  isPrivateAddress,
  type LookupAll,
  normalizeAllowedHosts,
} from './address-policy';

const resolvesTo =
  (...addresses: string[]): LookupAll =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    '::ffff:127.0.0.1',
  ])('%s is private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '172.32.0.1', '192.169.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );
});

describe('isAllowedHost', () => {
  it('matches a bare host on any port and host:port on that port only', () => {
    const allow = normalizeAllowedHosts([' localhost ', '127.0.0.1:8080', '', '[::1]:3000']);
    expect(allow).toEqual(['localhost', '127.0.0.1:8080', '[::1]:3000']);
    expect(isAllowedHost(new URL('http://localhost:1234/'), allow)).toBe(true);
    expect(isAllowedHost(new URL('http://127.0.0.1:8080/'), allow)).toBe(true);
    expect(isAllowedHost(new URL('http://127.0.0.1:8081/'), allow)).toBe(false);
    expect(isAllowedHost(new URL('http://[::1]:3000/'), allow)).toBe(true);
    expect(isAllowedHost(new URL('http://[::1]:3001/'), allow)).toBe(false);
  });
});

describe('checkFetchTarget', () => {
  it('refuses schemes other than http and https', async () => {
    await expect(checkFetchTarget(new URL('file:///etc/passwd'), [])).rejects.toThrow(
      /only fetches http and https/,
    );
    await expect(checkFetchTarget(new URL('ftp://example.com/x'), [])).rejects.toBeInstanceOf(ToolError);
  });

  it('refuses private literals, local names and names that resolve to private addresses', async () => {
    await expect(checkFetchTarget(new URL('http://127.0.0.1/'), [])).rejects.toThrow(
      /webFetch\.allowedHosts setting/,
    );
    await expect(checkFetchTarget(new URL('http://[::1]/'), [])).rejects.toThrow(
      /::1 is the loopback address/,
    );
    await expect(checkFetchTarget(new URL('http://localhost/'), [])).rejects.toThrow(/local host name/);
    await expect(checkFetchTarget(new URL('http://localhost./'), [])).rejects.toThrow(/local host name/);
    const lookup = resolvesTo('93.184.216.34', '10.0.0.5');
    await expect(checkFetchTarget(new URL('https://internal.example.com/'), [], lookup)).rejects.toThrow(
      /resolves to 10\.0\.0\.5, a private network address/,
    );
  });

  it('passes a public host, and private hosts the user allowed', async () => {
    await expect(
      checkFetchTarget(new URL('https://example.com/'), [], resolvesTo('93.184.216.34')),
    ).resolves.toBeUndefined();
    const local = resolvesTo('10.0.0.5');
    await expect(
      checkFetchTarget(new URL('http://dev.lan:8080/'), ['dev.lan:8080'], local),
    ).resolves.toBeUndefined();
    await expect(checkFetchTarget(new URL('http://127.0.0.1:9/'), ['127.0.0.1'])).resolves.toBeUndefined();
    await expect(
      checkFetchTarget(new URL('http://[::ffff:7f00:1]:9/'), ['::ffff:7f00:1']),
    ).resolves.toBeUndefined();
  });

  it('refuses credentials in the URL', async () => {
    await expect(checkFetchTarget(new URL('https://user:pw@example.com/'), [])).rejects.toThrow(
      /user name or password/,
    );
  });
});
