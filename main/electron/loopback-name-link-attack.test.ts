// A steered model's reply links to this machine by a name instead of an address: the machine's own host name (in
// /etc/hosts as 127.0.0.1 or 127.0.1.1 on Debian), a hosts-file alias such as `ip6-localhost`, or a public DNS name
// whose record is 127.0.0.1 (`127.0.0.1.nip.io`, `localtest.me`). No spelling check sees these, and a click handed the
// link to the person's browser, which sent a GET the model wrote to a local service. The desktop app resolves a
// link's host before it opens it and refuses a name that leads to a loopback or unspecified address
// (docs/security.md, "Data leaving the machine").
import dns from 'node:dns';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { classifyAddress } from '../../tools/sdk/web/ip-ranges';
import type { HostLookup } from './navigation-rules';
import { externalLinkOpenable } from './navigation-rules';

// Public DNS stands for itself here: the test machine may have no network. These are the records those names have.
const publicDns: HostLookup = async (hostname) => {
  const records: Record<string, string[]> = {
    '127.0.0.1.nip.io': ['127.0.0.1'],
    'localtest.me': ['127.0.0.1', '::1'],
    'dual.example.net': ['93.184.215.14', '::1'],
    'zero.example.net': ['0.0.0.0'],
    'github.com': ['140.82.121.4'],
  };
  const found = records[hostname];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return found;
};

describe('links to this machine by name', () => {
  it("are not opened when the machine's own name leads to loopback (the system resolver)", async () => {
    const name = os.hostname();
    const addresses = await dns.promises.lookup(name, { all: true }).catch(() => []);
    const loopback = addresses.some((a) =>
      ['loopback', 'unspecified'].includes(classifyAddress(a.address) ?? ''),
    );
    // On a machine whose own name is not a loopback name there is nothing to refuse by it.
    expect(await externalLinkOpenable(`http://${name}:8080/admin?drop=1`)).toBe(!loopback);
  });

  it('are not opened for a public name whose record is a loopback or unspecified address', async () => {
    for (const url of [
      'http://127.0.0.1.nip.io:5984/_utils',
      'http://localtest.me:3000/api/delete',
      'http://dual.example.net/',
      'http://zero.example.net:8000/',
    ])
      expect(await externalLinkOpenable(url, publicDns), url).toBe(false);
  });

  it('a name that does not resolve here is still handed over (behind a proxy only the browser resolves names)', async () => {
    expect(await externalLinkOpenable('https://intranet.example.net/', publicDns)).toBe(true);
  });

  it('still opens public names and public addresses, and refuses what the spelling rules refuse', async () => {
    expect(await externalLinkOpenable('https://github.com/owner/repo', publicDns)).toBe(true);
    expect(await externalLinkOpenable('http://[2606:4700::1]/', publicDns)).toBe(true);
    expect(await externalLinkOpenable('http://localhost./admin', publicDns)).toBe(false);
    expect(await externalLinkOpenable('file:///etc/passwd', publicDns)).toBe(false);
  });
});
