// The site of a call with a URL, which chat grants and suggested rules are scoped to.
import type { CanonicalArgument } from './canonical-argument';
import { runsOtherPrograms } from './shell-words';
import { addressesIn } from './word-address';

/**
 * The site a call's URL (`url`, or open_file's `target`) goes to (`https://docs.python.org`); null when it has none or it is no plain
 * http(s) address (userinfo, another scheme, unparsable). "Allow for this chat" covers that site only, and "always
 * allow" offers a rule for it (docs/security.md, "Data leaving the machine").
 */
export function callSite(args: Record<string, unknown>): string | null {
  const argument = urlArgument(args);
  if (!argument) return null;
  let url: URL;
  try {
    url = new URL(argument.value);
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '' || !/^https?:$/.test(url.protocol)) return null;
  return `${url.protocol}//${url.host}`;
}

/**
 * Whether a call that sends a URL can be given a standing approval for its site only: its URL has a plain site, and
 * for a rule, the URL is what rules match (download_file's rules match its `path` too, so a rule for it could only
 * cover every address).
 */
export function siteOffers(
  args: Record<string, unknown>,
  canonical: CanonicalArgument,
): { chat: boolean; always: boolean } {
  const argument = urlArgument(args);
  if (!argument) return { chat: true, always: true };
  const site = callSite(args) !== null;
  return { chat: site, always: site && canonical.kind === 'value' && canonical.key === argument.key };
}

/**
 * The argument naming an address the call reaches: `url`, or a `target` written with a scheme (open_file opens an
 * http(s) URL in the person's browser); null when the call has none.
 */
export function urlArgument(args: Record<string, unknown>): { key: 'url' | 'target'; value: string } | null {
  if (typeof args.url === 'string') return { key: 'url', value: args.url };
  if (typeof args.target === 'string' && /^[a-z][a-z0-9+.-]+:/i.test(args.target))
    return { key: 'target', value: args.target };
  return null;
}

/**
 * What a chat grant covers besides the tool: for a call with a URL its site; for a command line the program it runs
 * and every address its words name, with a scheme or without (`npm …`, `curl … https://api.x`, `curl … evil.com/c`);
 * for a wrapper, a shell or a package runner (`timeout 60 …`, `env A=1 …`, `sh -c '…'`, `npm exec …`), the exact line. So "allow for this chat" on `npm test` covers
 * `npm run build` but never `curl` sending the workspace away with the network a grant brings, and one on `curl` to
 * an API never covers `curl` or `git push` to a stranger's address; null (the whole tool) for anything else.
 */
export function grantScope(args: Record<string, unknown>, canonical: CanonicalArgument): string | null {
  const reach = grantReach(args, canonical);
  if (reach.kind === 'site') return reach.site;
  // Every site a word names is part of it: `curl -H … https://api.x/` never covers `curl -H … https://evil/`.
  return reach.kind === 'program' ? JSON.stringify([reach.program, ...reach.sites]) : null;
}

/** What "allow for this chat" covers, in a form the prompt and the dialog can name. */
export type GrantReach =
  { kind: 'site'; site: string } | { kind: 'program'; program: string; sites: string[] } | { kind: 'tool' };

/** grantScope in words for the person: the site, the program (and the addresses its words name), or the whole tool. */
export function grantReach(args: Record<string, unknown>, canonical: CanonicalArgument): GrantReach {
  if (urlArgument(args)) {
    const site = callSite(args);
    return site === null ? { kind: 'tool' } : { kind: 'site', site };
  }
  const argv = canonical.kind === 'command' ? canonical.reading.argv : null;
  if (!argv || argv.length === 0) return { kind: 'tool' };
  const [program = '', ...rest] = argv;
  const sites = [...new Set(rest.flatMap((word) => addressesIn(word)))].sort();
  // A wrapper or a shell runs whatever its words say: a grant for `timeout` or `sh` would cover any program, so
  // it covers exactly the line the person saw.
  if (runsOtherPrograms(argv) && canonical.kind === 'command' && canonical.reading.normal !== null)
    return { kind: 'program', program: canonical.reading.normal, sites };
  return { kind: 'program', program, sites };
}
