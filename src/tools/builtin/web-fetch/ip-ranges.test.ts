import { describe, expect, it } from 'vitest';
import { ipv6Groups, nonPublicReason } from './ip-ranges';

describe('nonPublicReason', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.8.9.10', 'a loopback address'],
    ['0.0.0.0', 'a "this network" address'],
    ['0.1.2.3', 'a "this network" address'],
    ['10.1.2.3', 'a private network address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['100.127.255.255', 'a carrier-grade NAT address'],
    ['169.254.169.254', 'a link-local address'],
    ['172.16.0.1', 'a private network address'],
    ['172.31.255.255', 'a private network address'],
    ['192.0.0.8', 'an IETF protocol address'],
    ['192.0.2.1', 'a documentation address'],
    ['192.168.1.1', 'a private network address'],
    ['198.18.0.1', 'a benchmarking address'],
    ['198.19.255.255', 'a benchmarking address'],
    ['198.51.100.7', 'a documentation address'],
    ['203.0.113.9', 'a documentation address'],
    ['224.0.0.1', 'a multicast address'],
    ['239.255.255.250', 'a multicast address'],
    ['240.0.0.1', 'a reserved address'],
    ['255.255.255.255', 'the broadcast address'],
    ['::', 'the unspecified address'],
    ['::1', 'the loopback address'],
    ['0:0:0:0:0:0:0:1', 'the loopback address'],
    ['::ffff:127.0.0.1', 'the IPv4-mapped form of 127.0.0.1, a loopback address'],
    ['::ffff:7f00:1', 'the IPv4-mapped form of 127.0.0.1, a loopback address'],
    ['0:0:0:0:0:ffff:7f00:1', 'the IPv4-mapped form of 127.0.0.1, a loopback address'],
    ['::FFFF:A9FE:A9FE', 'the IPv4-mapped form of 169.254.169.254, a link-local address'],
    ['::ffff:0:a00:1', 'the IPv4-translated form of 10.0.0.1, a private network address'],
    ['::127.0.0.1', 'the IPv4-compatible form of 127.0.0.1, a loopback address'],
    ['::7f00:1', 'the IPv4-compatible form of 127.0.0.1, a loopback address'],
    ['64:ff9b::127.0.0.1', 'the NAT64 form of 127.0.0.1, a loopback address'],
    ['64:ff9b::a9fe:a9fe', 'the NAT64 form of 169.254.169.254, a link-local address'],
    ['64:ff9b:1::5db8:d822', 'a local-use NAT64 address (64:ff9b:1::/48)'],
    ['2002:7f00:1::', 'the 6to4 form of 127.0.0.1, a loopback address'],
    ['2002:c0a8:101::1', 'the 6to4 form of 192.168.1.1, a private network address'],
    // Teredo: client 127.0.0.1 is stored inverted as 80ff:fffe.
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'the Teredo form of 127.0.0.1, a loopback address'],
    ['2001:0:a00:1::', 'the Teredo form of 10.0.0.1, a private network address'],
    ['100::1', 'a discard-only address (100::/64)'],
    ['2001:db8::1', 'a documentation address (2001:db8::/32)'],
    ['3fff::1', 'a documentation address (3fff::/20)'],
    ['fc00::1', 'a unique-local address (fc00::/7)'],
    ['fd12:3456::1', 'a unique-local address (fc00::/7)'],
    ['fe80::1', 'a link-local address (fe80::/10)'],
    ['fe80::1%eth0', 'a link-local address (fe80::/10)'],
    ['fec0::1', 'a site-local address (fec0::/10)'],
    ['ff02::1', 'a multicast address (ff00::/8)'],
    ['example.com', 'not an IP address'],
    ['127.1', 'not an IP address'],
  ])('%s is %s', (address, reason) => {
    expect(nonPublicReason(address)).toContain(reason);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.1',
    '192.169.0.1',
    '198.20.0.1',
    '223.255.255.255',
    '2606:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::808:808',
    '2002:808:808::1',
    // Teredo with a public server and a public client (8.8.8.8 inverted is f7f7:f7f7).
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
  ])('%s is public', (address) => {
    expect(nonPublicReason(address)).toBeUndefined();
  });
});

describe('ipv6Groups', () => {
  it('expands every spelling to eight groups', () => {
    const mapped = [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1];
    expect(ipv6Groups('::ffff:127.0.0.1')).toEqual(mapped);
    expect(ipv6Groups('::ffff:7f00:1')).toEqual(mapped);
    expect(ipv6Groups('0:0:0:0:0:ffff:7f00:1')).toEqual(mapped);
    expect(ipv6Groups('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ipv6Groups('1::8')).toEqual([1, 0, 0, 0, 0, 0, 0, 8]);
    expect(ipv6Groups('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Groups('1.2.3.4')).toBeUndefined();
  });
});
