// The desktop app's side of private-address-link-attack.test.tsx: a link the person clicks goes to their browser only
// for a public address. The machine's own interface addresses (its LAN address, its Docker bridge, link-local IPv6),
// every address outside the public internet, local-network names, and a public-looking name whose record is one of
// those are refused (docs/security.md, "Data leaving the machine").
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import type { HostLookup } from './navigation-rules';
import { externalLinkAllowed, externalLinkOpenable } from './navigation-rules';

const records: HostLookup = async (hostname) => {
  const found: Record<string, string[]> = {
    'release-notes.example.net': ['192.168.1.20'],
    'docs.example.net': ['93.184.215.14', 'fd00::2'],
    'github.com': ['140.82.121.4'],
  };
  const addresses = found[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses;
};

describe("links to this machine's addresses and the local network, in the desktop app", () => {
  it('refuses every address of its own interfaces', () => {
    const own = Object.values(os.networkInterfaces())
      .flat()
      .map((entry) => entry?.address)
      .filter((address): address is string => Boolean(address));
    expect(own.length).toBeGreaterThan(0);
    for (const address of own) {
      const host = address.includes(':') ? `[${address.replace(/%.*$/, '')}]` : address;
      expect(externalLinkAllowed(`http://${host}:8080/admin?drop=1`), address).toBe(false);
    }
  });

  it('refuses private, link-local, unique-local, metadata and reserved addresses, and local names', () => {
    for (const url of [
      'http://192.168.1.1/apply.cgi?reboot=1',
      'http://10.0.0.5/',
      'http://172.17.0.1:3000/',
      'http://169.254.169.254/latest/meta-data/',
      'http://100.64.0.1/',
      'http://192.0.2.2:18081/admin',
      'http://[fd00::2]/',
      'http://[fe80::1]/',
      'http://[::ffff:10.0.0.1]/',
      'http://my-mac.local:3000/',
      'http://printer.home.arpa/',
    ])
      expect(externalLinkAllowed(url), url).toBe(false);
  });

  it('refuses a public-looking name whose record is a private address, and opens public ones', async () => {
    expect(await externalLinkOpenable('http://release-notes.example.net/admin', records)).toBe(false);
    expect(await externalLinkOpenable('http://docs.example.net/', records)).toBe(false);
    expect(await externalLinkOpenable('https://github.com/owner/repo', records)).toBe(true);
    expect(await externalLinkOpenable('http://8.8.8.8/', records)).toBe(true);
  });
});
