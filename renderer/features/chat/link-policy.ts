// Which addresses in a reply become links (docs/security.md, "Data leaving the machine"): a steered model writes
// them, and a click sends a GET with whatever the model put in them. Only absolute http(s) URLs to other machines,
// without credentials, are links; and the host a link really goes to is what the person is shown when its text says
// something else.

/** The URL a link may open, or null when it must be shown as text only. */
export function linkTarget(href: string | undefined): URL | null {
  if (!href) return null;
  let url: URL;
  try {
    // No base: a relative or protocol-relative address is not a link here.
    url = new URL(href);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username !== '' || url.password !== '') return null;
  return localHost(url.hostname) ? null : url;
}

/**
 * Whether a link's text already names the host it goes to (its text is that address, or one on the same host). A
 * host that is not plain ASCII (`githuЬ.com`, read as github.com) or a text with user info before the host
 * (`https://github.com%2Flogin@evil.example/`) never names it: the real host is shown after it, in ASCII, as browsers
 * show it (lookalike-link-attack.test.tsx).
 */
export function textNamesHost(text: string, url: URL): boolean {
  if (url.hostname.split('.').some((label) => label.startsWith('xn--'))) return false;
  const shown = text.trim();
  for (const candidate of [shown, `http://${shown}`]) {
    try {
      const named = new URL(candidate);
      if (named.username === '' && named.password === '' && named.host === url.host) return true;
    } catch {
      // not an address
    }
  }
  return false;
}

// This machine, or the network it is on, however the URL parser spells it: it has already turned `127.1` and `0x7f.1`
// into 127.0.0.1 and IPv6 into its compressed hex form; browsers send every `*.localhost` name to loopback. A name
// without a dot may be this machine by another name (its own host name, `ip6-localhost` in /etc/hosts), which the
// page cannot resolve to know (loopback-name-link-attack.test.tsx). A service bound to every interface answers on the
// machine's own LAN address, its Docker bridge (172.17.0.1) and its link-local IPv6 address as on 127.0.0.1, and a
// router's or printer's admin page on the LAN takes a GET as well: no address outside the public internet is a link,
// nor a name only a local network resolves (`host.local`, which macOS answers with the machine's own address;
// `*.home.arpa`, `*.internal`, `*.lan`) (private-address-link-attack.test.tsx).
function localHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (!host.startsWith('[') && !host.includes('.')) return true;
  if (/\.(local|home\.arpa|internal|lan)$/.test(host)) return true;
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (v4) return privateV4(Number(v4[1]), Number(v4[2]), Number(v4[3]));
  if (!host.startsWith('[')) return false;
  const v6 = host.slice(1, -1);
  if (v6 === '::1' || v6 === '::') return true;
  // Unique-local, link-local and multicast addresses.
  if (/^(f[cd][0-9a-f]{0,2}|fe[89ab][0-9a-f]?|ff[0-9a-f]{0,2}):/.test(v6)) return true;
  // An IPv4 address carried in IPv6 (mapped, NAT64): judged as that address.
  const embedded = /^(?:::ffff|64:ff9b:):([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (!embedded) return false;
  const high = parseInt(embedded[1] as string, 16);
  const low = parseInt(embedded[2] as string, 16);
  return privateV4(high >> 8, high & 0xff, low >> 8);
}

// Loopback, unspecified, private, shared (CGNAT), link-local (and cloud metadata), IETF and documentation ranges,
// benchmarking, multicast and reserved: everything but the public internet.
function privateV4(a: number, b: number, c: number): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    a >= 224 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) ||
    (a === 198 && (b === 18 || b === 19)) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113)
  );
}
