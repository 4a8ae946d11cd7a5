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

// This machine however the URL parser spells it: it has already turned `127.1` and `0x7f.1` into 127.0.0.1 and IPv6
// into its compressed hex form; browsers send every `*.localhost` name to loopback. A name without a dot may be this
// machine by another name (its own host name, `ip6-localhost` in /etc/hosts), which the page cannot resolve to know
// (loopback-name-link-attack.test.tsx).
function localHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (!host.startsWith('[') && !host.includes('.')) return true;
  if (/^(127|0)\.\d+\.\d+\.\d+$/.test(host)) return true;
  if (!host.startsWith('[')) return false;
  const v6 = host.slice(1, -1);
  if (v6 === '::1' || v6 === '::') return true;
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (!mapped) return false;
  const first = parseInt(mapped[1] as string, 16) >> 8;
  return first === 127 || first === 0;
}
