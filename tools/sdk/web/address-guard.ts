// The address guard: a URL the model chose may reach only public addresses, unless settings allow more.
// Host names are resolved here and the connection is pinned to the checked addresses, so a DNS answer
// that changes between check and connect (DNS rebinding) cannot slip through.
import dns from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { AddressClass } from './ip-ranges';
import { classifyAddress, inRange, parseIp } from './ip-ranges';
import type { HostResolver, ResolvedWebSettings } from './web-settings';
import { ToolError } from '../types';

/** The lookup function net.connect and tls.connect accept (pinned to checked addresses). */
export type PinnedLookup = (
  hostname: string,
  options: LookupOptions,
  callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/** Decides which hosts and addresses a request may reach. */
export class AddressGuard {
  private readonly names: string[] = [];
  private readonly suffixes: string[] = [];
  private readonly ranges: Array<{ bytes: number[]; prefix: number }> = [];
  private readonly resolver: HostResolver;

  constructor(
    private readonly settings: Pick<ResolvedWebSettings, 'allowPrivateNetwork' | 'allowedHosts' | 'resolve'>,
  ) {
    for (const entry of settings.allowedHosts.map((h) => h.trim().toLowerCase()).filter(Boolean)) {
      const [ip, bits, ...rest] = entry.split('/');
      const bytes = parseIp(ip ?? '');
      if (bytes) {
        // A prefix that is not a whole number of bits in range allows nothing: read as NaN or a negative number it
        // matched every address, cloud metadata included (allowed-range-attack.test.ts).
        const prefix = bits === undefined ? bytes.length * 8 : /^\d{1,3}$/.test(bits) ? Number(bits) : -1;
        if (rest.length === 0 && prefix >= 0 && prefix <= bytes.length * 8)
          this.ranges.push({ bytes, prefix });
      } else if (entry.startsWith('*.')) this.suffixes.push(entry.slice(1));
      else this.names.push(entry);
    }
    this.resolver = settings.resolve ?? systemResolve;
  }

  /** Checks a URL before any connection: scheme, and the host itself when it is an IP literal. */
  checkUrl(url: URL): void {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ToolError('invalid_arguments', `only http and https URLs are fetched, not ${url.protocol}`);
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (parseIp(host)) this.checkAddress(host, host);
  }

  /** Throws blocked_address when `address` (reached through `host`) is not allowed. */
  checkAddress(host: string, address: string): void {
    const kind = classifyAddress(address);
    if (kind === null || this.allows(host, address, kind)) return;
    throw blockedError(host, address, kind);
  }

  /** Resolves a host name and checks every address it has; returns them for pinning. */
  async resolve(hostname: string): Promise<LookupAddress[]> {
    const host = hostname.replace(/^\[|\]$/g, '');
    if (parseIp(host)) {
      this.checkAddress(host, host);
      return [{ address: host, family: host.includes(':') ? 6 : 4 }];
    }
    const addresses = await this.resolver(host);
    if (addresses.length === 0) throw new ToolError('dns_failed', `${host} has no address`);
    // One bad address is enough to refuse: connecting may pick any of them.
    for (const { address } of addresses) this.checkAddress(host, address);
    return addresses;
  }

  /** A net/tls lookup that connects only to addresses this guard checked. */
  lookup(): PinnedLookup {
    return (hostname, options, callback) => {
      this.resolve(hostname).then(
        (all) => {
          const wanted =
            options.family === 4 || options.family === 6
              ? all.filter((a) => a.family === options.family)
              : all;
          const list = wanted.length > 0 ? wanted : all;
          if (options.all) callback(null, list);
          else callback(null, list[0]?.address ?? '', list[0]?.family);
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ''),
      );
    };
  }

  private allows(host: string, address: string, kind: AddressClass): boolean {
    const name = host.toLowerCase().replace(/\.$/, '');
    if (this.names.includes(name) || this.suffixes.some((suffix) => name.endsWith(suffix))) return true;
    const bytes = parseIp(address);
    if (bytes && this.ranges.some((range) => inRange(bytes, range))) return true;
    // Private networks may be opened as a whole; cloud metadata only by listing it in allowedHosts.
    return kind !== 'metadata' && this.settings.allowPrivateNetwork;
  }
}

function blockedError(host: string, address: string, kind: AddressClass): ToolError {
  const via = host === address ? address : `${host} (${address})`;
  return new ToolError(
    'blocked_address',
    `blocked: ${via} is a ${kind} address, which web tools may not reach; the user can allow it in ` +
      `settings.json under web.allowedHosts${kind === 'metadata' ? '' : ' or web.allowPrivateNetwork'}`,
    { host, address, kind },
  );
}

async function systemResolve(hostname: string): Promise<Array<{ address: string; family: 4 | 6 }>> {
  try {
    const all = await dns.promises.lookup(hostname, { all: true, order: 'verbatim' });
    return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new ToolError('dns_failed', `cannot resolve ${hostname} (${code})`);
  }
}
