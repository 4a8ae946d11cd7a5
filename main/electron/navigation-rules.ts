// What a page may do besides showing itself: nothing. Navigation, new windows and permissions are denied; links to
// http(s) pages open in the user's browser, if the link passes the allowlist.
import dns from 'node:dns';
import os from 'node:os';
import { classifyAddress, parseIp } from '../../tools/sdk/web/ip-ranges';
import { appRequestPath } from './app-protocol';

/** Whether a window may navigate to `url`: never (the app is one page; a reload does not ask). */
export function navigationAllowed(_url: string): boolean {
  return false;
}

/**
 * Whether a link's host is the user's own machine or its network, however it is spelled: `localhost` and every
 * `*.localhost` name (browsers send them to loopback), with or without a trailing dot; any address outside the public
 * internet (loopback, unspecified, private, link-local, unique-local, CGNAT, metadata, reserved, multicast; IPv4-mapped
 * IPv6 included: the URL parser has already turned `127.1` and `0x7f.1` into `127.0.0.1`); and any address of this
 * machine's own interfaces, public ones too. A service bound to every interface answers on the machine's LAN address
 * or Docker bridge as on 127.0.0.1 (private-address-link-attack.test.ts).
 */
function localHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (/\.(local|home\.arpa|internal|lan)$/.test(host)) return true;
  if (classifyAddress(host) !== null) return true;
  const bytes = parseIp(host);
  return bytes !== null && ownAddresses().has(bytes.join('.'));
}

// This machine's interface addresses, as bytes joined by dots, read once a minute at most.
let own: { at: number; addresses: Set<string> } | null = null;
function ownAddresses(): Set<string> {
  if (own && Date.now() - own.at < 60_000) return own.addresses;
  const addresses = new Set<string>();
  for (const list of Object.values(os.networkInterfaces()))
    for (const entry of list ?? []) {
      const bytes = parseIp(entry.address);
      if (bytes) addresses.add(bytes.join('.'));
    }
  own = { at: Date.now(), addresses };
  return addresses;
}

/** Whether a link may be opened in the user's browser: http(s) only, no credentials, not this machine. */
export function externalLinkAllowed(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  if (parsed.username !== '' || parsed.password !== '') return false;
  return parsed.hostname !== '' && !localHost(parsed.hostname);
}

/** What happens when a page asks for a new window: always denied; an allowed link opens externally instead. */
export function windowOpenDecision(url: string): { action: 'deny'; openExternally: boolean } {
  return { action: 'deny', openExternally: externalLinkAllowed(url) };
}

/** Whether a page may use a permission (camera, notifications, clipboard…): no. */
export function permissionAllowed(_permission: string): boolean {
  return false;
}

/** Resolves a host name to its addresses. */
export type HostLookup = (hostname: string) => Promise<string[]>;

const systemLookup: HostLookup = async (hostname) =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((found) => found.address);

/**
 * Whether a link may be opened in the user's browser, its host name resolved: besides what `externalLinkAllowed`
 * refuses, a name that leads to this machine — its own host name, a hosts-file alias (`ip6-localhost`), a public
 * name whose record is 127.0.0.1 (`127.0.0.1.nip.io`) — is refused as its address would be. A name that does not
 * resolve here is handed over (behind a proxy only the browser resolves names); a DNS server answering otherwise a
 * moment later (rebinding) is not caught here (loopback-name-link-attack.test.ts).
 */
export async function externalLinkOpenable(url: string, lookup: HostLookup = systemLookup): Promise<boolean> {
  if (!externalLinkAllowed(url)) return false;
  const hostname = new URL(url).hostname;
  if (parseIp(hostname)) return true;
  let addresses: string[];
  try {
    addresses = await lookup(hostname);
  } catch {
    return true;
  }
  return !addresses.some((address) => localHost(address));
}

/**
 * What happens when a window would navigate from the page at `from` to `url`: it never does; the target goes to the
 * user's browser only from the app's own pages (a link the person clicks in a reply). A page rendered for
 * download_file (any other page, or none yet: a first load's redirect) hands nothing over, or it could open whatever
 * it liked in the person's browser without a click (render-navigation-attack.test.ts).
 */
export function navigationDecision(from: string, url: string): { prevent: boolean; openExternally: boolean } {
  return {
    prevent: !navigationAllowed(url),
    openExternally: appRequestPath(from) !== null && externalLinkAllowed(url),
  };
}
