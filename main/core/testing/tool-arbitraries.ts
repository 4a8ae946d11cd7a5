// fast-check generators of what tool sources hand the catalogue: tool.json texts (valid, mutated, random, deeply
// nested, not JSON at all) and MCP tools/list entries, for the catalogue fuzz suite.
import fc from 'fast-check';

/** Text that has broken parsers, regular expressions and linters before. */
export const NASTY_TEXT = [
  'last-day',
  'last-week',
  'last-month',
  '[a-z]',
  '\\',
  '(?<x>',
  '*+?{}|^$.',
  '__proto__',
  'constructor',
  'toString',
  '😀',
  'ΑΣ',
  '日本語',
  '\ud800',
  '\u0000',
  '\u2028',
  '',
  ' ',
  '-1',
  'script_',
  'mcp__a__b',
];

/** Short or odd text. */
export const oddText = fc.oneof(
  fc.constantFrom(...NASTY_TEXT),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

/** JSON text nested `depth` levels, in one of the shapes that overflowed recursive code. */
export function deepJson(depth: number, shape: 'object' | 'array' | 'schema'): string {
  switch (shape) {
    case 'object':
      return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    case 'array':
      return `${'['.repeat(depth)}${']'.repeat(depth)}`;
    case 'schema':
      return `${'{"type":"object","properties":{"d":'.repeat(depth)}{"type":"string"}${'}}'.repeat(depth)}`;
  }
}

/** A nesting depth: around the limit, far past it, and deep enough to have overflowed the stack. */
export const depth = fc.oneof(
  fc.integer({ min: 1, max: 70 }),
  fc.constantFrom(63, 64, 65, 500, 3000, 12_000),
);

/** A deeply nested JSON value (parsed from text, as it arrives from a file or a server). */
export const deepValue = fc
  .tuple(depth, fc.constantFrom('object', 'array', 'schema') as fc.Arbitrary<'object' | 'array' | 'schema'>)
  .map(([d, shape]) => JSON.parse(deepJson(d, shape)) as unknown);

/** Any JSON value, now and then a deep one (kept within what JSON.stringify itself can write). */
export const anyJson = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.integer({ min: 1, max: 1500 }),
        fc.constantFrom('object', 'array', 'schema') as fc.Arbitrary<'object' | 'array' | 'schema'>,
      )
      .map(([d, shape]) => JSON.parse(deepJson(d, shape)) as unknown),
  },
);

/** Any JSON text, now and then nested deeper than JSON.stringify (or any recursive reader) could go. */
export const anyJsonText = fc.oneof(
  { weight: 4, arbitrary: anyJson.map((value) => JSON.stringify(value) ?? 'null') },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        depth,
        fc.constantFrom('object', 'array', 'schema') as fc.Arbitrary<'object' | 'array' | 'schema'>,
      )
      .map(([d, shape]) => deepJson(d, shape)),
  },
);

/** A parameter schema an author might write, with odd keys, enums and values mixed in. */
export const parameterSchema = fc.oneof(
  fc.record({
    type: fc.constant('object'),
    properties: fc.dictionary(
      oddText,
      fc.record(
        {
          type: fc.oneof(fc.constantFrom('string', 'integer', 'array', 'object', 'boolean'), oddText),
          description: oddText,
          enum: fc.array(fc.oneof(oddText, fc.integer()), { maxLength: 4 }),
          pattern: fc.constantFrom('^[a-z]+$', '(', '\\p{L}', '[', '\\d+'),
          default: fc.jsonValue({ maxDepth: 1 }),
        },
        { requiredKeys: [] },
      ),
      { maxKeys: 4 },
    ),
    required: fc.array(oddText, { maxLength: 2 }),
  }),
  anyJson.map((root) => ({ type: 'object', properties: { root } })),
  anyJson,
);

/** A tool.json that loads. */
export const validManifest = fc.record({
  name: fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/),
  description: fc.constantFrom(
    'Count the words of a text.\nUse when you need a word count; read_file for the text itself.',
    'List the events of a period.\nUse when asked about events; use search_web for news.',
  ),
  parameters: fc.constant({
    type: 'object',
    properties: { text: { type: 'string', description: 'The text, e.g. "a b".' } },
    required: ['text'],
  }),
});

const manifestKey = fc.constantFrom(
  'name',
  'description',
  'parameters',
  'always_allow',
  'concurrent',
  'timeout',
  'secrets',
  'writable',
  'background',
  '__proto__',
  'constructor',
);

/** A valid tool.json with some fields replaced, removed or added. */
export const mutatedManifest = fc
  .tuple(
    validManifest,
    fc.array(fc.tuple(manifestKey, fc.oneof(anyJson, oddText, parameterSchema, fc.constant(undefined))), {
      minLength: 1,
      maxLength: 3,
    }),
  )
  .map(([manifest, changes]) => {
    const out: Record<string, unknown> = { ...manifest };
    for (const [key, value] of changes) {
      if (value === undefined) delete out[key];
      else Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    }
    return out;
  });

/** A change to JSON text: cut, a character put in, a piece repeated. */
const textEdit = fc.tuple(
  fc.nat(),
  fc.oneof(fc.constantFrom('', '{', '}', '"', ',', '\\', '\u0000', '😀'), oddText),
  fc.nat(3),
);

/** Every kind of tool.json text the fuzz suite writes. */
export const manifestText = fc.oneof(
  { weight: 3, arbitrary: mutatedManifest.map((m) => JSON.stringify(m)) },
  { weight: 2, arbitrary: anyJsonText },
  {
    weight: 2,
    arbitrary: fc.tuple(validManifest, textEdit).map(([manifest, [at, insert, repeat]]) => {
      const text = JSON.stringify(manifest);
      const cut = at % (text.length + 1);
      return text.slice(0, cut) + insert.repeat(repeat + 1) + text.slice(cut + (repeat % 2));
    }),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(validManifest, depth, fc.constantFrom('parameters', 'unknown', 'array'))
      .map(([manifest, d, where]) => {
        const base = JSON.stringify({ ...manifest, [where === 'parameters' ? 'parameters' : 'extra']: '@@' });
        const deep =
          where === 'parameters'
            ? `{"type":"object","properties":{"root":${deepJson(d, 'schema')}}}`
            : deepJson(d, where === 'unknown' ? 'object' : 'array');
        return base.replace('"@@"', deep);
      }),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
);

/** One MCP tools/list entry: a good tool changed here and there, random JSON, a deep schema, an odd name. */
export const mcpToolItem = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.record({
          name: fc.oneof(fc.stringMatching(/^[a-z][a-z0-9_-]{0,20}$/), oddText),
          description: fc.oneof(
            oddText,
            fc.constant('Read a thing.\nUse when asked; use other_tool otherwise.'),
          ),
          inputSchema: parameterSchema,
        }),
        fc.array(
          fc.tuple(
            fc.constantFrom(
              'name',
              'description',
              'inputSchema',
              'outputSchema',
              'annotations',
              'execution',
              'title',
            ),
            fc.oneof(anyJson, oddText, parameterSchema, fc.constant(undefined)),
          ),
          { maxLength: 2 },
        ),
      )
      .map(([tool, changes]) => {
        const out: Record<string, unknown> = { ...tool };
        for (const [key, value] of changes) {
          if (value === undefined) delete out[key];
          else out[key] = value;
        }
        return out as unknown;
      }),
  },
  { weight: 1, arbitrary: fc.oneof(anyJson, deepValue) },
  {
    weight: 1,
    arbitrary: fc.tuple(depth, fc.constantFrom('inputSchema', 'outputSchema')).map(([d, field]) => ({
      name: `deep_${d}`,
      description: 'Deep.',
      inputSchema: { type: 'object' },
      [field]: JSON.parse(`{"type":"object","properties":{"r":${deepJson(d, 'schema')}}}`) as unknown,
    })),
  },
);
