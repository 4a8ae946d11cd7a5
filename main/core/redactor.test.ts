import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Redactor } from './redactor';
import { secretForms } from './secret-forms';

const KEY = 'CanaryKEY7Qx9ZpWm4';
const SPECIAL = 'p@ss w0rd/Kanary+Z!é';

function redactor(): Redactor {
  const r = new Redactor();
  r.add('CANARY', KEY);
  r.add('PASSWORD', SPECIAL);
  return r;
}

describe('Redactor: the forms of a secret', () => {
  it('matches the value, case-folded (a DNS error lower-cases a host name)', () => {
    const r = redactor();
    expect(r.redact(`token ${KEY}.`)).toBe('token [redacted:CANARY].');
    expect(r.redact(`getaddrinfo ENOTFOUND ${KEY.toLowerCase()}.invalid`)).toBe(
      'getaddrinfo ENOTFOUND [redacted:CANARY].invalid',
    );
    expect(r.redact(KEY.toUpperCase())).toBe('[redacted:CANARY]');
  });

  it('matches every percent-encoding: upper and lower hex, + for spaces, every byte encoded', () => {
    const r = redactor();
    const encodings = [
      encodeURIComponent(SPECIAL),
      encodeURIComponent(SPECIAL).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
      encodeURI(SPECIAL),
      new URLSearchParams({ q: SPECIAL }).toString().slice(2),
      [...Buffer.from(SPECIAL)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
    ];
    for (const encoded of encodings) expect(r.redact(`?q=${encoded}&x=1`)).toBe('?q=[redacted:PASSWORD]&x=1');
    r.add('QUOTED', 'say "hi" \\ to-them');
    expect(r.redact(JSON.stringify({ password: 'say "hi" \\ to-them' }))).toBe(
      '{"password":"[redacted:QUOTED]"}',
    );
  });

  it('matches base64 and base64url at all three alignments inside a longer encoding', () => {
    const r = redactor();
    for (const secret of [KEY, SPECIAL]) {
      for (const prefix of ['', 'a', 'ab', 'abc', '{"k":"']) {
        const bytes = Buffer.from(`${prefix}${secret}"}`);
        for (const encoded of [bytes.toString('base64'), bytes.toString('base64url')]) {
          const out = r.redact(encoded);
          expect(out).toContain('[redacted:');
          // At most a character or two of the secret's bits is left on either side: never enough to decode it.
          expect(out.replace(/\[redacted:[A-Z]+\]/, '').length).toBeLessThan(encoded.length - secret.length);
        }
      }
    }
  });

  it('matches short secrets (4-7 characters) exactly only, and ignores shorter ones', () => {
    const r = new Redactor();
    r.add('PIN', 'Ab12');
    r.add('TINY', 'xyz');
    expect(r.redact('pin Ab12, ab12, QWIxMg==, xyz')).toBe('pin [redacted:PIN], ab12, QWIxMg==, xyz');
    expect(secretForms('Ab12345')).toEqual([{ text: 'Ab12345', folded: false }]);
    expect(secretForms('Ab123456').length).toBeGreaterThan(1);
  });

  it('scrubs the pieces of a secret that an output cap cut in two', () => {
    const r = redactor();
    const text = `head ${KEY.slice(0, 9)}\n[output truncated: 1,234 bytes cut]\n${KEY.slice(12)} tail`;
    expect(r.redact(text)).toBe(
      'head [redacted:CANARY]\n[output truncated: 1,234 bytes cut]\n[redacted:CANARY] tail',
    );
    // Twice is the same as once, and a note with no secret near it is left alone.
    expect(r.redact(r.redact(text))).toBe(r.redact(text));
    const plain = 'a\n[output truncated: 5 bytes cut]\nb';
    expect(r.redact(plain)).toBe(plain);
  });

  it('scrubs the start and end an API shows of a masked key', () => {
    const r = redactor();
    const masked = `Incorrect API key provided: ${KEY.slice(0, 5)}**********${KEY.slice(-4)}. See docs.`;
    expect(r.redact(masked)).toBe(
      'Incorrect API key provided: [redacted:CANARY]**********[redacted:CANARY]. See docs.',
    );
    expect(r.redact('a **** b and ***bold***')).toBe('a **** b and ***bold***');
  });
});

describe('Redactor.redactDeep', () => {
  it('gives a JSON-shaped copy with keys and values scrubbed', () => {
    const r = redactor();
    const copy = r.redactDeep({ a: [1, undefined, { [KEY]: KEY }], d: new Date(0), n: NaN, f: () => 1 });
    expect(copy).toEqual({
      a: [1, null, { '[redacted:CANARY]': '[redacted:CANARY]' }],
      d: '1970-01-01T00:00:00.000Z',
      n: null,
    });
  });

  it('walks 100,000 levels of nesting without recursion, and survives a cycle', () => {
    const r = redactor();
    const root: Record<string, unknown> = {};
    let node = root;
    for (let i = 0; i < 100_000; i++) node = (node.x = {}) as Record<string, unknown>;
    node.secret = KEY;
    let copy = r.redactDeep(root) as Record<string, unknown>;
    for (let i = 0; i < 100_000; i++) copy = copy.x as Record<string, unknown>;
    expect(copy.secret).toBe('[redacted:CANARY]');
    const cyclic: Record<string, unknown> = { key: KEY };
    cyclic.self = cyclic;
    expect(r.redactDeep(cyclic)).toEqual({ key: '[redacted:CANARY]', self: '[circular]' });
  });

  it('copies alike near the top (by recursion) and deep down (by the iterative walk)', () => {
    const r = redactor();
    const wrap = (value: unknown): Record<string, unknown> => {
      const root: Record<string, unknown> = {};
      let node = root;
      for (let i = 0; i < 150; i++) node = (node.x = {}) as Record<string, unknown>;
      node.v = value;
      return root;
    };
    const unwrap = (copy: unknown): unknown => {
      let node = copy as Record<string, unknown>;
      for (let i = 0; i < 150; i++) node = node.x as Record<string, unknown>;
      return node.v;
    };
    const leaf = fc.oneof(
      fc.constantFrom(KEY, `a ${KEY} b`, SPECIAL, 'plain', undefined, NaN, null, true),
      fc.integer(),
      fc.bigInt(),
      fc.date({ noInvalidDate: true }),
    );
    const values = fc.anything({
      key: fc.constantFrom('a', 'b', KEY, `x${KEY}`, '__proto__', '0'),
      values: [leaf],
      maxDepth: 4,
    });
    fc.assert(
      fc.property(values, (value) => {
        expect(unwrap(r.redactDeep(wrap(value)))).toEqual(r.redactDeep({ v: value }).v);
        expect(JSON.stringify(r.redactDeep({ v: value }))).not.toContain(KEY);
      }),
    );
    // A cycle that crosses from one walk into the other is found; an object met twice, not as its own ancestor, is not one.
    const shared = { k: KEY };
    const root = wrap([shared, shared]);
    let node = root;
    for (let i = 0; i < 120; i++) node = node.x as Record<string, unknown>;
    node.back = root.x;
    const copy = r.redactDeep(root) as Record<string, unknown>;
    let at = copy;
    for (let i = 0; i < 120; i++) at = at.x as Record<string, unknown>;
    expect(at.back).toBe('[circular]');
    expect(unwrap(copy)).toEqual([{ k: '[redacted:CANARY]' }, { k: '[redacted:CANARY]' }]);
  });

  it('keeps "__proto__" an own key, as JSON.parse does', () => {
    const r = redactor();
    const copy = r.redactDeep(JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('stays linear: 2 MiB of text against 50 secrets in well under a few seconds', () => {
    const r = new Redactor();
    for (let i = 0; i < 50; i++) r.add(`KEY_${i}`, `secret-value-${i}-${'x'.repeat(i)}-Zz`);
    const text = 'lorem ipsum secret-value dolor sit amet '.repeat(52_000);
    const started = Date.now();
    expect(r.redact(text + ' secret-value-7-xxxxxxx-Zz')).toMatch(/\[redacted:KEY_7\]$/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('stays bounded next to many masks and cuts: 100,000 of them, some next to pieces of a secret', () => {
    const r = redactor();
    const text = `ab ****** cd ${KEY.slice(0, 6)}**** ${'[output truncated: 1 bytes cut]'} `.repeat(50_000);
    const started = Date.now();
    const out = r.redact(text);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(out.startsWith('ab ****** cd [redacted:CANARY]****')).toBe(true);
  });
});

describe('Redactor.stream', () => {
  it('holds back a key printed one character at a time, then lets out only its redaction', () => {
    const r = redactor();
    const stream = r.stream();
    const pieces = [...`key: ${KEY}\n`].map((char) => stream.push(char));
    pieces.push(stream.end());
    const shown = pieces.map((piece) => piece.trim()).filter(Boolean);
    for (const piece of shown) expect(KEY.toLowerCase().startsWith(piece.toLowerCase())).toBe(false);
    expect(pieces.join('')).toBe('key: [redacted:CANARY]\n');
  });

  it('lets out a held end once it can no longer become a secret', () => {
    const r = redactor();
    const stream = r.stream();
    expect(stream.push(`x ${KEY.slice(0, 6)}`)).toBe('x ');
    expect(stream.held).toBe(6);
    expect(stream.push('!')).toBe(`${KEY.slice(0, 6)}!`);
    expect(stream.held).toBe(0);
  });

  it('picks up a secret added while the stream runs', () => {
    const r = new Redactor();
    const stream = r.stream();
    expect(stream.push('abc ')).toBe('abc ');
    r.add('LATE', 'late-secret-value');
    expect(stream.push('late-secret')).toBe('');
    expect(stream.push('-value done') + stream.end()).toBe('[redacted:LATE] done');
  });

  it('never lets out part of a secret, whatever the chunking (property, 300 runs)', () => {
    const r = redactor();
    const encoded = Buffer.from(`z${KEY}`).toString('base64');
    // Each echo with the span that is the secret's own (in base64 the first characters also carry the "z").
    const forms: Array<[string, number, number]> = [
      [KEY, 0, KEY.length],
      [encodeURIComponent(SPECIAL), 0, encodeURIComponent(SPECIAL).length],
      [encoded, 2, Math.floor(((1 + KEY.length) * 8) / 6)],
      [KEY.toLowerCase(), 0, KEY.length],
    ];
    let runs = 0;
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.constantFrom(...forms),
        fc.string({ maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 30 }),
        (before, [secret, from, to], after, sizes) => {
          runs++;
          const text = `${before}${secret}${after}`;
          const stream = r.stream();
          let out = '';
          let at = 0;
          for (let i = 0; at < text.length; i++) {
            const size = sizes[i % sizes.length] as number;
            out += stream.push(text.slice(at, at + size));
            at += size;
            // What has been let out stands for the input up to `shown`: no occurrence of the secret may straddle it.
            const shown = Math.min(at, text.length) - stream.held;
            const start = before.length + from;
            expect(shown <= start || shown >= before.length + to).toBe(true);
          }
          out += stream.end();
          expect(out).not.toContain(secret.slice(from, to));
          expect(r.redact(out)).toBe(out);
        },
      ),
      { numRuns: 300, seed: 1212 },
    );
    expect(runs).toBe(300);
  });
});
