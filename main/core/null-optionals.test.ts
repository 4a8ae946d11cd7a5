// An optional argument sent as null is treated as absent: dropped before validation and the handler, at the depth
// the schema describes, and only where the schema does not allow null itself.
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../tools/sdk/types';
import { allowsNull, dropNullOptionals } from './null-optionals';
import { testCore } from './testing/test-core';

const schema = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'What to look for, e.g. "x"' },
    limit: { type: 'integer', default: 5, description: 'Most results, e.g. 5' },
    cursor: { type: ['string', 'null'], default: null, description: 'Where to go on, e.g. "c1"' },
    mode: { enum: ['fast', 'full'], default: 'fast', description: 'fast or full' },
    options: {
      type: 'object',
      default: {},
      description: 'Options, e.g. {"strict": true}',
      properties: {
        strict: { type: 'boolean', default: false, description: 'Whole words only' },
        label: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'A label, e.g. "a"' },
      },
      required: ['strict'],
    },
    files: {
      type: 'array',
      default: [],
      description: 'Files, e.g. [{"path": "a"}]',
      items: { type: 'object', properties: { path: { type: 'string' }, encoding: { type: 'string' } } },
    },
  },
  required: ['query'],
};

describe('dropNullOptionals', () => {
  it('drops nulls of optional properties that do not allow null, at every depth the schema describes', () => {
    const args = {
      query: null,
      limit: null,
      cursor: null,
      mode: null,
      options: { strict: null, label: null },
      files: [{ path: 'a', encoding: null }, null],
      extra: null,
    };
    expect(dropNullOptionals(schema, args)).toEqual({
      // Required: left for validation to name.
      query: null,
      // Allows null: kept.
      cursor: null,
      options: { strict: null, label: null },
      files: [{ path: 'a' }, null],
      // Not described by the schema: left for validation (additionalProperties) to decide.
      extra: null,
    });
    // The input is never changed in place; what did not change is the same object.
    expect(args.limit).toBeNull();
    const untouched = { query: 'x', options: { strict: true } };
    expect(dropNullOptionals(schema, untouched)).toBe(untouched);
  });

  it.each([
    [{ type: 'string' }, false],
    [{ type: ['string', 'null'] }, true],
    [{ type: 'null' }, true],
    [{ enum: ['a', null] }, true],
    [{ enum: ['a'] }, false],
    [{ const: 'a' }, false],
    [{ const: null }, true],
    [{ anyOf: [{ type: 'string' }, { type: 'integer' }] }, false],
    [{ oneOf: [{ type: 'string' }, {}] }, true],
    [{ allOf: [{ type: 'string' }, {}] }, false],
    [{ type: 'string', nullable: true }, true],
    [{ $ref: '#/definitions/x' }, true],
    [{}, true],
    [true, true],
    [false, false],
  ])('allowsNull(%j) is %s', (s, expected) => {
    expect(allowsNull(s)).toBe(expected);
  });

  it('copes with arguments nested far deeper than any schema', () => {
    let deep: Record<string, unknown> = { strict: null };
    for (let i = 0; i < 10_000; i++) deep = { options: deep };
    const selfSchema: Record<string, unknown> = { type: 'object', properties: {} };
    (selfSchema.properties as Record<string, unknown>).options = selfSchema;
    expect(() => dropNullOptionals(selfSchema, deep)).not.toThrow();
  });

  it('lets the handler see an optional null as absent, so its default applies (through the dispatcher)', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const tool = defineTool({
      name: 'search_notes',
      description: 'Search the notes.\nUse when asked about notes; use read_file for files.',
      parameters: schema,
      handler: (args) => {
        seen.push(args);
        return String(args.limit ?? 5);
      },
    });
    const core = testCore([tool]);
    const outcome = await core.dispatcher.dispatch(
      { id: 'c1', name: 'search_notes', args: JSON.stringify({ query: 'x', limit: null, mode: null }) },
      { chatId: 'c', workspace: '/tmp', signal: new AbortController().signal },
    );
    expect(outcome).toMatchObject({ outcome: 'ok', text: '5' });
    expect(seen).toEqual([{ query: 'x' }]);
    // A required null is still an error naming the field.
    const bad = await core.dispatcher.dispatch(
      { id: 'c2', name: 'search_notes', args: { query: null } },
      { chatId: 'c', workspace: '/tmp', signal: new AbortController().signal },
    );
    expect(bad).toMatchObject({ outcome: 'error', code: 'invalid_arguments' });
    expect(bad.outcome === 'error' && bad.message).toContain('`query` must be string');
  });
});
