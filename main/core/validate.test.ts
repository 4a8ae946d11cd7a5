// The argument validator as the registry uses it at registration: compile once, report why a schema cannot be.
import { describe, expect, it } from 'vitest';
import { ArgumentValidator } from './validate';

describe('ArgumentValidator', () => {
  it('says why a schema cannot be compiled, and keeps the compiled one for the calls', () => {
    const validator = new ArgumentValidator();
    expect(validator.check({ type: 'object', properties: { a: { $ref: '#/nowhere' } } })).toMatch(
      /can't resolve reference/,
    );
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    expect(validator.check(schema)).toBeNull();
    expect(validator.validate('t', schema, { a: 1 })).toMatchObject({ ok: false, fields: ['a'] });
  });

  it('lets two tools (or two versions of one) share an $id, and still follows a recursive $ref', () => {
    const validator = new ArgumentValidator();
    const tree = () => ({
      $id: 'https://example.com/tree',
      type: 'object',
      properties: { name: { type: 'string' }, child: { $ref: '#' } },
    });
    expect(validator.check(tree())).toBeNull();
    const again = tree();
    expect(validator.check(again)).toBeNull();
    expect(
      validator.validate('t', again, { name: 'a', child: { name: 'b', child: { name: 3 } } }),
    ).toMatchObject({
      ok: false,
      fields: ['child.child.name'],
    });
  });

  it('accepts vendor formats without printing to the console', () => {
    const validator = new ArgumentValidator();
    expect(
      validator.check({ type: 'object', properties: { a: { type: 'string', format: 'x-vendor' } } }),
    ).toBeNull();
  });
});

describe('patterns of a stranger’s schema', () => {
  const validator = new ArgumentValidator();
  const schema = (pattern: string) =>
    ({ type: 'object', properties: { s: { type: 'string', pattern } } }) as const;

  it('match in linear time: a catastrophically backtracking pattern refuses a long near-miss at once', () => {
    const started = performance.now();
    // With JavaScript's engine this took ~10 s of the main thread (28 a's), doubling with each more.
    const result = validator.validate('t', schema('^(a+)+$'), { s: `${'a'.repeat(5000)}!` });
    expect(performance.now() - started).toBeLessThan(500);
    expect(result).toMatchObject({ ok: false, fields: ['s'] });
    expect(validator.validate('t', schema('^(a+)+$'), { s: 'aaa' })).toEqual({ ok: true });
  });

  it('keep their meaning: anchors, classes, unicode, patternProperties', () => {
    expect(validator.validate('t', schema('^[a-z]+\\d{2}$'), { s: 'ab12' })).toEqual({ ok: true });
    expect(validator.validate('t', schema('^[a-z]+\\d{2}$'), { s: 'ab123' }).ok).toBe(false);
    expect(validator.validate('t', schema('^\\p{L}+$'), { s: 'héllo' })).toEqual({ ok: true });
    const keyed = { type: 'object', patternProperties: { '^x-': { type: 'number' } } } as const;
    expect(validator.validate('t', keyed, { 'x-a': 'no' }).ok).toBe(false);
    expect(validator.validate('t', keyed, { 'y-a': 'fine' })).toEqual({ ok: true });
  });

  it('one RE2 cannot match in linear time (a lookahead) is not checked rather than run with backtracking', () => {
    expect(validator.validate('t', schema('^(?!.*\\.\\.)[a-z.]+$'), { s: 'a..b' })).toEqual({ ok: true });
  });
});
