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
