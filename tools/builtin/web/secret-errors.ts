// Secrets a request carried never come back in what it reports (docs/security.md, "Redaction"): a DNS, TLS or URL
// error names the host as the resolver saw it (lower-cased, percent-encoded or punycoded), so every form of every
// value the request filled in is replaced by `[redacted:NAME]` before the error leaves the tool.
import { domainToASCII } from 'node:url';

/** Values shorter than this are left alone: scrubbing them would garble the message and hide nothing. */
const MIN_VALUE_LENGTH = 4;

/** Replaces the secrets of one request, by name, in any text about it. */
export class RequestSecrets {
  private readonly pattern: RegExp | null;
  private readonly names = new Map<string, string>();

  constructor(values: ReadonlyMap<string, string>) {
    for (const [name, value] of values) {
      if (value.length < MIN_VALUE_LENGTH) continue;
      for (const form of forms(value))
        if (!this.names.has(form.toLowerCase())) this.names.set(form.toLowerCase(), name);
    }
    const sources = [...this.names.keys()]
      .sort((a, b) => b.length - a.length)
      .map((form) => form.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'));
    // Case-insensitive: a host name comes back lower-cased, percent-escapes in either case.
    this.pattern = sources.length > 0 ? new RegExp(sources.join('|'), 'gi') : null;
  }

  /** `text` with every form of every value replaced. */
  scrub(text: string): string {
    if (!this.pattern) return text;
    return text.replace(
      this.pattern,
      (match) => `[redacted:${this.names.get(match.toLowerCase()) ?? 'secret'}]`,
    );
  }

  /** The same error, its message, stack, details and causes scrubbed in place (its class and code are kept). */
  scrubError<T>(error: T): T {
    if (!this.pattern) return error;
    let current: unknown = error;
    // A cause chain is short; the bound only guards against a cycle.
    for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
      current.message = this.scrub(current.message);
      if (current.stack) current.stack = this.scrub(current.stack);
      const details = (current as { details?: unknown }).details;
      if (details && typeof details === 'object')
        for (const [key, value] of Object.entries(details))
          if (typeof value === 'string') (details as Record<string, unknown>)[key] = this.scrub(value);
      current = current.cause;
    }
    return error;
  }
}

function forms(value: string): string[] {
  const all = [value, safe(() => encodeURIComponent(value)), safe(() => encodeURI(value))];
  all.push(new URLSearchParams({ v: value }).toString().slice(2));
  // A value that made up a host label comes back in punycode. Only whole: for a value that cannot be a host name
  // (a key holding "/"), domainToASCII returns a piece of it, and scrubbing that piece left the rest where no other
  // form could find it.
  const ascii = safe(() => domainToASCII(value));
  if (ascii !== null && ascii.length >= value.length) all.push(ascii);
  return [...new Set(all.filter((form): form is string => !!form && form.length >= MIN_VALUE_LENGTH))];
}

function safe(encode: () => string): string | null {
  try {
    return encode();
  } catch {
    return null;
  }
}
