// Browser mode reads every request target one strict way before any check (docs/security.md): an origin-form
// path in canonical spelling, or nothing. Every other spelling of a path (a trailing slash, `//`, `.` and `..`
// segments, backslashes, `;` parameters, trailing dots, needless, double or overlong escapes) is refused, so no
// spelling can reach a page without the token.

/** A request target that passed: its decoded canonical path, its raw path, and the token of its query. */
export interface RequestTarget {
  /** Decoded, e.g. "/assets/app.js"; "/" for the root. */
  path: string;
  /** As sent (percent-escapes kept), e.g. "/assets/app.js". */
  rawPath: string;
  token: string | null;
  /** A one-time launch code (`?launch=`), which the root page trades for the token. */
  launch: string | null;
  /** The WebSocket's page key and nonce (`?key=&nonce=`), which the page sends instead of the token. */
  key: string | null;
  nonce: string | null;
}

// RFC 3986 path characters, less `;` (path parameters) and `:` (alternate data streams on Windows).
const PATH_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,=@/%]*$/;
// Escapes that would smuggle a separator, a dot, another escape or a control character past the checks.
const FORBIDDEN_ESCAPE = /%(?:2[eEfF5]|5[cC]|3[aAbB]|[01][0-9a-fA-F]|7[fF])/;
const MAX_TARGET = 8 * 1024;

/** Reads a request line's target; null when it is not one canonical origin-form path. */
export function readTarget(raw: string | undefined): RequestTarget | null {
  if (typeof raw !== 'string' || raw.length > MAX_TARGET) return null;
  // Origin-form only: "/x". Not "*", not "http://host/x", not "//host/x".
  if (!raw.startsWith('/') || raw.startsWith('//')) return null;
  const mark = raw.indexOf('?');
  const rawPath = mark === -1 ? raw : raw.slice(0, mark);
  const query = mark === -1 ? '' : raw.slice(mark + 1);
  if (!PATH_CHARS.test(rawPath) || /%(?![0-9a-fA-F]{2})/.test(rawPath) || FORBIDDEN_ESCAPE.test(rawPath))
    return null;
  let path: string;
  try {
    // Throws on invalid UTF-8, overlong forms included.
    path = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  // One spelling only: nothing escaped that needs no escape (`%69ndex.html`), so the raw path is the decoded one
  // re-encoded (hex digits in either case).
  if (!canonical(path) || rawPath.replace(/%[0-9a-f]{2}/gi, (hex) => hex.toUpperCase()) !== encodePath(path))
    return null;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(query);
  } catch {
    return null;
  }
  const [token, launch, key, nonce] = ['token', 'launch', 'key', 'nonce'].map((name) => params.get(name));
  return {
    path,
    rawPath,
    token: token ?? null,
    launch: launch ?? null,
    key: key ?? null,
    nonce: nonce ?? null,
  };
}

// The one spelling of a decoded path: path characters as they are, everything else as upper-case UTF-8 escapes.
function encodePath(path: string): string {
  let out = '';
  for (const char of path) {
    if (/^[A-Za-z0-9\-._~!$&'()*+,=@/]$/.test(char)) out += char;
    else for (const byte of Buffer.from(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

// "/" or "/seg/seg" with no empty, dot, hidden, or dot- or space-ended segment and nothing outside printable text.
function canonical(path: string): boolean {
  if (path === '/') return true;
  if (/[\p{Cc}\\%;:]/u.test(path)) return false;
  return path
    .slice(1)
    .split('/')
    .every((segment) => segment !== '' && !segment.startsWith('.') && !/[. ]$/.test(segment));
}
