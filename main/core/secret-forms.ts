// The shapes a secret value takes in text (docs/security.md): itself, case-folded, percent-encoded the ways URL
// builders do it, JSON-escaped, HTML-escaped, base64 (standard and URL-safe) at the three byte alignments (also of
// its UTF-16 and of its own base64), and hex or escaped character by character.

/** Values shorter than this are not secrets worth scrubbing: they are too common in ordinary text. */
export const MIN_SECRET_LENGTH = 4;

/**
 * Below this length a secret is matched exactly only. A case-folded 4–7 character value ("test", "admin") would
 * scrub ordinary words, and its base64 core is only 3–8 characters, which turn up by chance in any long base64 blob
 * (images, other tokens); from 8 characters every base64 core is at least 10 characters (~50 bits), so a chance
 * match is negligible.
 */
export const DERIVED_MIN_LENGTH = 8;

/** Above this length only the exact value is matched: its derived forms would only grow the pattern. */
export const DERIVED_MAX_LENGTH = 4096;

/** One literal shape of a secret; `folded` forms are compared case-insensitively (both sides through foldCase). */
export interface SecretForm {
  text: string;
  folded: boolean;
}

/** Every form of `value` that the redactor matches; none for a value shorter than MIN_SECRET_LENGTH. */
export function secretForms(value: string): SecretForm[] {
  if (value.length < MIN_SECRET_LENGTH) return [];
  if (value.length < DERIVED_MIN_LENGTH || value.length > DERIVED_MAX_LENGTH)
    return [{ text: value, folded: false }];
  const bytes = Buffer.from(value, 'utf8');
  const json = JSON.stringify(value).slice(1, -1);
  const asciiJson = unicodeEscaped(json, NON_ASCII_UNITS);
  const texts = [
    value,
    tryEncode(encodeURIComponent, value),
    tryEncode(encodeURI, value),
    formEncode(value),
    percentEncode(bytes, (byte) => UNRESERVED.test(String.fromCharCode(byte))),
    percentEncode(bytes, () => false),
    // Python's urllib.parse.quote (keeps "/"), a "/" alone escaped, and a form decoder's "+" read as a space (which
    // a URL then carries as "%20").
    percentEncode(bytes, (byte) => byte === SLASH || UNRESERVED.test(String.fromCharCode(byte))),
    value.replace(/\//g, '%2F'),
    value.replace(/\+/g, ' '),
    value.replace(/\+/g, '%20'),
    // JSON as JavaScript writes it, as Python's json.dumps (ensure_ascii), PHP's json_encode (also "\/") and Go's
    // encoding/json (<, > and & escaped) write it.
    json,
    asciiJson,
    asciiJson.replace(/\//g, '\\/'),
    unicodeEscaped(json, HTML_UNSAFE),
    ...base64Cores(bytes),
    // base64 of UTF-16LE (PowerShell's -EncodedCommand), and base64 of a text holding the key's base64 (a
    // .dockerconfigjson's auth, as `kubectl get secret -o yaml` prints it).
    ...base64Cores(Buffer.from(value, 'utf16le')),
    ...base64Cores(bytes)
      .filter((_, i) => i % 2 === 0)
      .flatMap((core) => base64Cores(Buffer.from(core)).filter((_, i) => i % 2 === 0)),
    ...htmlEscaped(value),
    // Every character encoded (hex, \xNN, \u escapes, HTML numeric entities): a server's debug echo.
    ...everyCharEncoded(value, bytes),
    // UTF-16 output read as UTF-8 (a Windows program's, PowerShell's files): a NUL beside each character, before it
    // (big-endian) or after it (little-endian); the characters with the NULs between them are in both.
    ...(NON_ASCII.test(value) ? [] : [value.split('').join('\0')]),
  ];
  const folded = new Set<string>();
  for (const text of texts) if (text && text.length >= MIN_SECRET_LENGTH) folded.add(foldCase(text));
  return [...folded].map((text) => ({ text, folded: true }));
}

const NON_ASCII = /[^\p{ASCII}]/u;
const NON_ASCII_UNITS = /[\u0080-\uffff]/g;
const HTML_UNSAFE = /[<>&\u2028\u2029]/g;

const HTML_SPECIAL = /[&<>"']/;

/**
 * The value as HTML and XML escapers write it, for a value holding `& < > " '` (a page or an error quoting the key
 * it was sent): named entities with each spelling of the apostrophe (escape-html, Python's html.escape, PHP's
 * htmlspecialchars, XML's &apos;), Go's html.EscapeString (&#34; &#39;), and text-node escaping that leaves quotes.
 */
function htmlEscaped(value: string): string[] {
  if (!HTML_SPECIAL.test(value)) return [];
  const amp = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const quoted = amp.replace(/"/g, '&quot;');
  return [
    amp,
    amp.replace(/"/g, '&#34;').replace(/'/g, '&#39;'),
    ...['&#39;', '&#x27;', '&#039;', '&apos;'].map((apostrophe) => quoted.replace(/'/g, apostrophe)),
  ];
}

// Every UTF-16 unit `units` matches as a \uXXXX escape (a character outside the BMP becomes its surrogate pair).
function unicodeEscaped(text: string, units: RegExp): string {
  return text.replace(units, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
/**
 * The value with every character encoded, as debug echoes and dumps write it: hex of its UTF-8 bytes (either case
 * through folding), `\xNN` escapes, `\u` escapes of every UTF-16 unit, and HTML numeric entities (decimal and hex)
 * of every code point. Computed once per known secret (docs/security.md, "Redaction").
 */
function everyCharEncoded(value: string, bytes: Buffer): string[] {
  const points = [...value].map((char) => char.codePointAt(0) as number);
  return [
    bytes.toString('hex'),
    [...bytes].map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join(''),
    unicodeEscaped(value, /[\s\S]/g),
    points.map((point) => `&#${point};`).join(''),
    points.map((point) => `&#x${point.toString(16)};`).join(''),
  ];
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const SLASH = 0x2f;

/**
 * Lower-cases text unit by unit, so the result has the same length and indexes as the input (String#toLowerCase
 * may change the length, e.g. for "İ", and then match positions would no longer fit the original).
 */
export function foldCase(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  const units = new Array<string>(text.length);
  for (let i = 0; i < text.length; i++) units[i] = foldUnit(text[i] as string);
  return units.join('');
}

/** One UTF-16 unit folded the way foldCase folds it. */
export function foldUnit(unit: string): string {
  const lower = unit.toLowerCase();
  return lower.length === 1 ? lower : unit;
}

/**
 * The stable inner part of base64(prefix + value + suffix) for a value starting at byte offset 0, 1 or 2 of a
 * 3-byte group: the characters whose 6 bits all come from the value. Standard and URL-safe alphabets.
 */
export function base64Cores(bytes: Buffer): string[] {
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
    const first = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    const core = padded.toString('base64').slice(first, end);
    cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores;
}

function tryEncode(encode: (text: string) => string, value: string): string | null {
  try {
    return encode(value);
  } catch {
    // A lone surrogate cannot be percent-encoded: that form simply does not exist.
    return null;
  }
}

// application/x-www-form-urlencoded, as URLSearchParams writes it (space as +).
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

function percentEncode(bytes: Buffer, keep: (byte: number) => boolean): string {
  let out = '';
  for (const byte of bytes)
    out += keep(byte) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}
