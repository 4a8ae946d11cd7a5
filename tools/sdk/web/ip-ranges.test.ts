import { describe, expect, it } from 'vitest';
import { AddressGuard } from './address-guard';
import { classifyAddress, parseIp } from './ip-ranges';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.1.2', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fd00:ec2::254', 'metadata'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['[::1]', 'loopback'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(classifyAddress(address)).toBeNull();
    },
  );

  it('parses IPv6 forms into 16 bytes and rejects non-addresses', () => {
    expect(parseIp('::1')).toEqual([...new Array<number>(15).fill(0), 1]);
    expect(parseIp('::ffff:1.2.3.4')?.slice(10)).toEqual([0xff, 0xff, 1, 2, 3, 4]);
    expect(parseIp('example.com')).toBeNull();
    expect(parseIp('1.2.3')).toBeNull();
  });
});

describe('AddressGuard', () => {
  const base = { allowPrivateNetwork: false, allowedHosts: [] as string[] };

  it('allows listed names, wildcard subdomains, addresses and CIDR ranges', () => {
    const guard = new AddressGuard({
      ...base,
      allowedHosts: ['nas.lan', '*.corp.example', '192.168.1.20', '10.0.0.0/8'],
    });
    expect(() => guard.checkAddress('nas.lan', '192.168.1.5')).not.toThrow();
    expect(() => guard.checkAddress('git.corp.example', '172.16.0.9')).not.toThrow();
    expect(() => guard.checkAddress('192.168.1.20', '192.168.1.20')).not.toThrow();
    expect(() => guard.checkAddress('10.9.8.7', '10.9.8.7')).not.toThrow();
    expect(() => guard.checkAddress('192.168.1.21', '192.168.1.21')).toThrow(/private/);
    expect(() => guard.checkAddress('corp.example', '172.16.0.9')).toThrow(/blocked/);
  });

  it('opens private networks with allowPrivateNetwork but keeps cloud metadata closed', () => {
    const guard = new AddressGuard({ ...base, allowPrivateNetwork: true });
    expect(() => guard.checkAddress('127.0.0.1', '127.0.0.1')).not.toThrow();
    expect(() => guard.checkAddress('fd00::1', 'fd00::1')).not.toThrow();
    expect(() => guard.checkAddress('metadata.google.internal', '169.254.169.254')).toThrow(/metadata/);
    const listed = new AddressGuard({ ...base, allowedHosts: ['169.254.169.254'] });
    expect(() => listed.checkAddress('169.254.169.254', '169.254.169.254')).not.toThrow();
  });

  it('refuses a name when any of its addresses is private, and checks IP literals in URLs', async () => {
    const guard = new AddressGuard({
      ...base,
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.1', family: 4 },
      ],
    });
    await expect(guard.resolve('mixed.test')).rejects.toMatchObject({ code: 'blocked_address' });
    expect(() => guard.checkUrl(new URL('http://[::ffff:127.0.0.1]/'))).toThrow(/loopback/);
    // The URL parser turns odd IPv4 spellings into the dotted form before the check.
    expect(() => guard.checkUrl(new URL('http://2130706433/'))).toThrow(/loopback/);
    expect(() => guard.checkUrl(new URL('http://0x7f.1/'))).toThrow(/loopback/);
    expect(() => guard.checkUrl(new URL('ftp://example.com/'))).toThrow(/http/);
  });
});
