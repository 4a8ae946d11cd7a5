// The site of a call with a URL, which chat grants and suggested rules are scoped to.
import type { CanonicalArgument } from './canonical-argument';

/**
 * The site a call with a URL goes to (`https://docs.python.org`), or null for any other call. "Allow for this chat"
 * covers that site only, and "always allow" offers a rule for it (docs/security.md, "Data leaving the machine").
 */
export function callSite(canonical: CanonicalArgument): string | null {
  if (canonical.kind !== 'value' || canonical.key !== 'url') return null;
  let url: URL;
  try {
    url = new URL(canonical.text);
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '' || !/^https?:$/.test(url.protocol)) return null;
  return `${url.protocol}//${url.host}`;
}
