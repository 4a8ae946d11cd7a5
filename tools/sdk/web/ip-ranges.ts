// Which IP addresses the model may not reach by default: everything that is not the public internet.
import net from 'node:net';

/** Why an address is blocked; 'metadata' stays blocked even when private networks are allowed. */
export type AddressClass =
  | 'metadata'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'unique-local'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

interface Range {
  bytes: number[];
  prefix: number;
  kind: AddressClass;
}

// Cloud metadata endpoints come first so they get their own, stricter class.
const V4: Array<[string, number, AddressClass]> = [
  ['169.254.169.254', 32, 'metadata'], // AWS, GCP, Azure, OpenStack, …
  ['169.254.170.2', 32, 'metadata'], // AWS ECS task metadata
  ['100.100.100.200', 32, 'metadata'], // Alibaba Cloud
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'reserved'], // documentation
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // includes 255.255.255.255
];

const V6: Array<[string, number, AddressClass]> = [
  ['fd00:ec2::254', 128, 'metadata'], // AWS over IPv6
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['100::', 64, 'reserved'], // discard-only
  ['2001::', 32, 'reserved'], // Teredo: hides an IPv4 address we cannot check
  ['2001:db8::', 32, 'reserved'], // documentation
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'link-local'], // deprecated site-local
  ['ff00::', 8, 'multicast'],
];

// Parsed with the first address classified, not at start (docs/hosts.md, "Fast start").
let ranges: { v4: Range[]; v6: Range[] } | null = null;
const parsedRanges = () =>
  (ranges ??= {
    v4: V4.map(([ip, prefix, kind]) => ({ bytes: parseIp(ip) ?? [], prefix, kind })),
    v6: V6.map(([ip, prefix, kind]) => ({ bytes: parseIp(ip) ?? [], prefix, kind })),
  });

/** The class of a blocked address, or null for a public one (and for something that is not an IP). */
export function classifyAddress(address: string): AddressClass | null {
  const bytes = parseIp(address);
  if (!bytes) return null;
  const { v4: V4_RANGES, v6: V6_RANGES } = parsedRanges();
  if (bytes.length === 4) return match(bytes, V4_RANGES);
  const embedded = embeddedIpv4(bytes);
  // An IPv6 form that carries an IPv4 address reaches that address: judge the IPv4 one.
  if (embedded) return match(embedded, V4_RANGES);
  return match(bytes, V6_RANGES);
}

/** An IP address (v4 or v6, brackets and zone ids allowed) as 4 or 16 bytes; null when it is not one. */
export function parseIp(text: string): number[] | null {
  const address = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = net.isIP(address);
  if (family === 4) return address.split('.').map(Number);
  if (family !== 6) return null;
  let head = address;
  let tail: number[] = [];
  const dotted = /:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted?.[1]) {
    tail = dotted[1].split('.').map(Number);
    head = address.slice(0, dotted.index + 1) + '0:0';
  }
  const [left = '', right] = head.split('::');
  const groups = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const l = groups(left);
  const r = right === undefined ? [] : groups(right);
  const words = [...l, ...new Array<number>(8 - l.length - r.length).fill(0), ...r];
  const bytes = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** Whether `bytes` lies in `range` (same family, first `prefix` bits equal). */
export function inRange(bytes: number[], range: { bytes: number[]; prefix: number }): boolean {
  if (bytes.length !== range.bytes.length) return false;
  for (let bit = 0; bit < range.prefix; bit += 8) {
    const mask = range.prefix - bit >= 8 ? 0xff : (0xff << (8 - (range.prefix - bit))) & 0xff;
    const i = bit / 8;
    if (((bytes[i] ?? 0) & mask) !== ((range.bytes[i] ?? 0) & mask)) return false;
  }
  return true;
}

function match(bytes: number[], ranges: Range[]): AddressClass | null {
  return ranges.find((range) => inRange(bytes, range))?.kind ?? null;
}

// IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96, 64:ff9b:1::/48) and 6to4 (2002::/16).
function embeddedIpv4(bytes: number[]): number[] | null {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12);
  if (zeros(0, 12) && !zeros(12, 15)) return bytes.slice(12);
  const nat64 = [0x00, 0x64, 0xff, 0x9b];
  if (nat64.every((b, i) => bytes[i] === b) && (zeros(4, 12) || (bytes[4] === 0 && bytes[5] === 1))) {
    return bytes.slice(12);
  }
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6);
  return null;
}
