// The cost bounds of a stranger's schema (schema-cost.ts): what they refuse, and what real schemas keep.
import { describe, expect, it } from 'vitest';
import { schemaCostProblem } from './schema-cost';
import { ArgumentValidator } from './validate';

const chain = (links: number) => {
  const definitions: Record<string, unknown> = { [`d${links}`]: { type: 'string' } };
  for (let i = 0; i < links; i++) {
    definitions[`d${i}`] = {
      anyOf: [{ $ref: `#/definitions/d${i + 1}` }, { $ref: `#/definitions/d${i + 1}` }],
    };
  }
  return { type: 'object', definitions, properties: { x: { $ref: '#/definitions/d0' } } };
};

describe('schemaCostProblem', () => {
  it('keeps ordinary schemas: shared definitions, a tree recursing into two properties, a list of itself', () => {
    expect(schemaCostProblem(chain(8))).toBeNull();
    const tree = {
      type: 'object',
      $defs: {
        node: {
          type: 'object',
          properties: { left: { $ref: '#/$defs/node' }, right: { $ref: '#/$defs/node' } },
        },
      },
      properties: { root: { $ref: '#/$defs/node' } },
    };
    expect(schemaCostProblem(tree)).toBeNull();
    expect(
      schemaCostProblem({
        type: 'object',
        properties: { children: { type: 'array', items: { $ref: '#' } } },
      }),
    ).toBeNull();
  });

  it('refuses a doubling chain, a doubling recursion, many patterns and a $ref it cannot follow', () => {
    expect(schemaCostProblem(chain(22))).toMatch(/more than 2500 subschemas/);
    const twice = { type: 'object', properties: { a: { $ref: '#/$defs/n' } } };
    const recursive = { $defs: { n: { anyOf: [twice, twice] } }, $ref: '#/$defs/n' };
    expect(schemaCostProblem(recursive)).toMatch(/reached twice for the same value/);
    const viaPattern = { properties: { a: { $ref: '#' } }, patternProperties: { '^a$': { $ref: '#' } } };
    expect(schemaCostProblem(viaPattern)).toMatch(/reached twice/);
    const patterns = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`^k${i}$`, {}]));
    expect(schemaCostProblem({ patternProperties: patterns })).toMatch(/the limit is 16/);
    expect(schemaCostProblem({ properties: { x: { $ref: 'http://127.0.0.1:9/x.json' } } })).toMatch(
      /cannot be followed/,
    );
    const perItem = { items: { allOf: Array.from({ length: 1200 }, () => ({ not: { type: 'string' } })) } };
    expect(schemaCostProblem({ properties: { a: perItem } })).toMatch(
      /more than 64 subschemas apply to each value at \.a\[\*\]/,
    );
    // The same on a named property is one value: within the other limits, it stays.
    const named = { allOf: Array.from({ length: 100 }, () => ({ not: { type: 'string' } })) };
    expect(schemaCostProblem({ properties: { a: named } })).toBeNull();
    const enumValues = Array.from({ length: 1000 }, (_, i) => ({ a: [i, { b: i }] }));
    expect(schemaCostProblem({ enum: enumValues })).toMatch(/more than 2500/);
  });

  it('the validator reports it as a compile problem, at once', () => {
    const started = Date.now();
    expect(new ArgumentValidator().check(chain(30))).toMatch(/the schema costs too much to check/);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('many subschemas on each of many items', () => {
  it('is refused before it runs: 1,200 on 200,000 items took 35 s', () => {
    const validator = new ArgumentValidator();
    const schema = {
      type: 'object',
      properties: {
        a: {
          type: 'array',
          items: { allOf: Array.from({ length: 1200 }, () => ({ not: { type: 'string' } })) },
        },
      },
    };
    const started = Date.now();
    const result = validator.validate('t', schema, { a: Array.from({ length: 200_000 }, () => 0) });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result).toMatchObject({ ok: false, message: expect.stringMatching(/the limit is 64/) });
  });
});

describe('uniqueItems', () => {
  it('finds duplicates as deep equality does (key order ignored), and many items in linear time', () => {
    const validator = new ArgumentValidator();
    const schema = { type: 'object', properties: { a: { type: 'array', uniqueItems: true } } };
    expect(
      validator.validate('t', schema, {
        a: [
          { x: 1, y: [1] },
          { y: [1], x: 1 },
        ],
      }),
    ).toMatchObject({ ok: false });
    expect(validator.validate('t', schema, { a: [1, '1', [1], { 1: 1 }, null, true] })).toEqual({ ok: true });
    const started = Date.now();
    expect(validator.validate('t', schema, { a: Array.from({ length: 100_000 }, (_, i) => [i]) })).toEqual({
      ok: true,
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
