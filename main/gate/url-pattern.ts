// URL rules (docs/security.md): a rule pattern that looks like a URL is matched part by part against the URL as
// the WHATWG parser (what fetch uses) reads it, never as text: `http://127.0.0.1:18084?.example.com/`,
// `https://a.example.com@evil.com/` or `https://evil.com\@x.example.com/` then cannot pass for `*.example.com`.
import { domainToASCII } from 'node:url';
import { compileGlob } from './glob';

/** A URL rule pattern in parts: scheme, host and path+query are rule globs, port a number or any. */
export interface UrlPattern {
  scheme: string;
  host: string;
  port: number | '*';
  path: string;
}

/** A URL as the WHATWG parser reads it, in the parts rules match. */
export interface UrlParts {
  scheme: string;
  host: string;
  port: number | null;
  /** The path and query as parsed, and again percent-decoded with `..` resolved (what a server may see). */
  paths: string[];
  userinfo: boolean;
}

const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443, ws: 80, wss: 443, ftp: 21 };
const PATTERN = /^([a-z*][a-z0-9+.*-]*):\/\/([^/]*)(.*)$/is;

/** Whether a rule pattern is a URL pattern (`https://*.example.com/**`). */
export function isUrlPattern(pattern: string): boolean {
  return PATTERN.test(pattern);
}

/** The parts of a URL pattern, or null when it is not one a URL can match (userinfo, a bad port). */
export function parseUrlPattern(pattern: string): UrlPattern | null {
  const match = PATTERN.exec(pattern);
  if (!match) return null;
  const scheme = (match[1] as string).toLowerCase();
  const authority = match[2] as string;
  if (authority.includes('@')) return null;
  const portMatch = /^(.*?)(?::(\d+|\*))?$/.exec(authority);
  const rawHost = portMatch?.[1] ?? authority;
  const rawPort = portMatch?.[2];
  const port =
    rawPort === '*' ? '*' : rawPort !== undefined ? Number(rawPort) : (DEFAULT_PORTS[scheme] ?? null);
  if (port === null) return null;
  const host = rawHost
    .toLowerCase()
    .replace(/\.$/, '')
    .split('.')
    .map((label) => (/^[\x21-\x7e]*$/.test(label) ? label : domainToASCII(label) || label))
    .join('.');
  const path = match[3] === '' ? '/' : (match[3] as string);
  return { scheme, host, port, path };
}

/** The parts of a URL the way fetch reads it, or null when it does not parse. */
export function parseUrl(text: string): UrlParts | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  const port = url.port === '' ? (DEFAULT_PORTS[scheme] ?? null) : Number(url.port);
  const asParsed = url.pathname + url.search;
  const decoded = normalisePath(percentDecode(url.pathname).replace(/\\/g, '/')) + percentDecode(url.search);
  return {
    scheme,
    // A trailing dot names the same host in DNS: `example.com.` is `example.com`.
    host: url.hostname.replace(/\.$/, ''),
    port,
    paths: [...new Set([asParsed, decoded])],
    userinfo: url.username !== '' || url.password !== '',
  };
}

/**
 * Whether a URL matches a URL pattern. For an allow rule (`strict`) every reading of the path must match and a
 * URL with userinfo never does; for a deny rule any reading is enough.
 */
export function urlMatches(pattern: UrlPattern, url: UrlParts, strict: boolean): boolean {
  if (strict && url.userinfo) return false;
  if (!compileGlob(pattern.scheme).test(url.scheme)) return false;
  if (!compileGlob(pattern.host).test(url.host)) return false;
  if (pattern.port !== '*' && pattern.port !== url.port) return false;
  const path = compileGlob(pattern.path);
  return strict ? url.paths.every((p) => path.test(p)) : url.paths.some((p) => path.test(p));
}

// Decodes only well-formed %XX sequences, byte by byte, so a bad one stays as it is instead of throwing.
function percentDecode(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

function normalisePath(text: string): string {
  const out: string[] = [];
  for (const segment of text.split('/').slice(1)) {
    if (segment === '..') out.pop();
    else if (segment !== '.') out.push(segment);
  }
  return `/${out.join('/')}`;
}
