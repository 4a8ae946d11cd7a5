// bash's $'…' strings (docs/security.md): what the text between the quotes becomes, for the sensitive-target
// check (`cat ~/$'\x2essh'/config` names ~/.ssh). dash 0.5.12 reads the same text as `$` and a single-quoted string.

const SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** The value bash gives `$'…'` (raw as written, with the `$'` and the closing quote). */
export function decodeAnsiC(raw: string): string {
  // After `$` (and any line continuation) comes the opening quote.
  const open = raw.indexOf("'");
  const body = raw.slice(open + 1, raw.endsWith("'") && raw.length > open + 1 ? -1 : undefined);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c !== '\\' || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const next = body[++i] as string;
    const simple = SIMPLE[next];
    if (simple !== undefined) out += simple;
    else if (/[0-7]/.test(next)) {
      const digits = /^[0-7]{1,3}/.exec(body.slice(i))?.[0] ?? next;
      out += String.fromCharCode(parseInt(digits, 8) & 0xff);
      i += digits.length - 1;
    } else if (next === 'x' || next === 'u' || next === 'U') {
      const max = next === 'x' ? 2 : next === 'u' ? 4 : 8;
      const digits = new RegExp(`^[0-9A-Fa-f]{1,${max}}`).exec(body.slice(i + 1))?.[0];
      if (!digits) out += `\\${next}`;
      else {
        const code = parseInt(digits, 16);
        out += code <= 0x10ffff ? String.fromCodePoint(code) : '';
        i += digits.length;
      }
    } else if (next === 'c' && i + 1 < body.length) {
      out += String.fromCharCode((body.charCodeAt(++i) & 0x1f) >>> 0);
    } else out += `\\${next}`;
  }
  return out;
}

/** The value dash 0.5.12 gives the same text: a `$`, then the quoted text as it is. */
export function dashReading(raw: string): string {
  const open = raw.indexOf("'");
  const end = raw.indexOf("'", open + 1);
  return `$${raw.slice(open + 1, end === -1 ? undefined : end)}`;
}
