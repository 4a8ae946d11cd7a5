import { describe, expect, it } from 'vitest';
import { EXAMPLE_TOOL_JSON, TOOL_GENERATE_GUIDE } from '../../../tools/builtin/guides/tool-generate-guide';
import { LINT_CODES } from './codes';
import { lintTool } from './lint-tool';
import { MAX_PARAMETER_DEPTH } from './schema-walk';
import type { LintInput } from './types';

const WHEN = 'Use when a measurement must be shown in another unit; use convert_currency for money.';

/** A tool with zero findings, guidance included; each test breaks one thing. */
const GOOD: LintInput = {
  name: 'convert_units',
  description: `Convert a length or weight value from one unit to another.\n${WHEN}\nBoth units must measure the same quantity.`,
  parameters: {
    type: 'object',
    properties: {
      value: { type: 'number', description: 'The amount to convert; any finite number. Example: 12.5' },
      unit: {
        type: 'string',
        enum: ['m', 'km'],
        description: 'Unit of value: m for metres, km for kilometres.',
      },
      precision: { type: 'integer', default: 2, description: 'Decimal places in the result. Example: 4' },
    },
    required: ['value', 'unit'],
  },
};

function lint(patch: Partial<LintInput>): ReturnType<typeof lintTool> {
  return lintTool({ ...GOOD, ...patch });
}

function codes(patch: Partial<LintInput>): string[] {
  return lint(patch).map((finding) => finding.code);
}

function withDescription(description: string): string[] {
  return codes({ description });
}

/** GOOD's schema with one more (optional, defaulted unless `required`) parameter. */
function withParameter(key: string, schema: unknown, required = false): Record<string, unknown> {
  const base = GOOD.parameters as { properties: Record<string, unknown>; required: string[] };
  return {
    ...base,
    properties: { ...base.properties, [key]: schema },
    required: required ? [...base.required, key] : base.required,
  };
}

/** A description of exactly `total` characters (newlines not counted), valid in every other way. */
function descriptionOfLength(total: number, lineCount: 2 | 3 = 2): string {
  const when = 'Use for units; see other_tool.';
  const precondition = 'Needs network.';
  const rest = when.length + (lineCount === 3 ? precondition.length : 0);
  const what = `Fetch ${'a'.repeat(total - rest - 'Fetch '.length)}`;
  return [what, when, ...(lineCount === 3 ? [precondition] : [])].join('\n');
}

describe('lintTool', () => {
  it('finds nothing in a well-made tool', () => {
    expect(lintTool(GOOD)).toEqual([]);
  });

  it('gives every finding the level of its code, a code naming its rule and a message', () => {
    const findings = lintTool({
      name: 'ProcessData',
      description: '**x**',
      parameters: { properties: { a: {}, b: { type: 'array', description: 'Список' } } },
    });
    expect(findings.length).toBeGreaterThan(5);
    for (const finding of findings) {
      expect(LINT_CODES[finding.code as keyof typeof LINT_CODES]).toBe(finding.level);
      expect(finding.code).toMatch(/^R[1-5]_[A-Z_]+$/);
      expect(finding.message.length).toBeGreaterThan(20);
    }
  });

  it('makes the design page musts errors for built-ins (strict) and leaves them guidance for others', () => {
    const description =
      'This tool simply converts a length or weight value from one unit to another.\nUse when a value is in another unit.';
    const parameters = withParameter('note', {
      type: 'string',
      default: '',
      description: 'A remark to keep.',
    });
    const levels = (strict: boolean) =>
      Object.fromEntries(
        lintTool({ ...GOOD, description, parameters, strict }).map((f) => [f.code, f.level]),
      );
    expect(levels(false)).toEqual({
      R2_NO_ALTERNATIVE: 'guidance',
      R2_FILLER: 'guidance',
      R3_NO_EXAMPLE: 'guidance',
    });
    expect(levels(true)).toEqual({ R2_NO_ALTERNATIVE: 'error', R2_FILLER: 'error', R3_NO_EXAMPLE: 'error' });
    // Every other guidance code stays guidance even for a built-in.
    expect(lintTool({ ...GOOD, name: 'weather', strict: true }).map((f) => f.level)).toEqual(['guidance']);
  });

  it('lists findings in rule order', () => {
    const found = codes({ name: 'Bad', description: '', parameters: { properties: { x: {} } } });
    expect(found).toEqual([...found].sort((a, b) => a.slice(0, 2).localeCompare(b.slice(0, 2))));
  });
});

describe('R1 name', () => {
  it.each([
    'ConvertUnits',
    'convert-units',
    'convert__units',
    '_convert',
    'convert_',
    '1convert',
    'convert units',
    '',
  ])('flags %j as not snake_case', (name) => {
    expect(codes({ name })).toContain('R1_NOT_SNAKE_CASE');
  });

  it.each(['convert_units', 'get_v2_data', 'read_file2'])('accepts %j', (name) => {
    expect(codes({ name }).filter((code) => code.startsWith('R1'))).toEqual([]);
  });

  it('suggests the snake_case form', () => {
    expect(lint({ name: 'ConvertUnits' })[0]?.message).toContain('"convert_units"');
  });

  it('allows 64 characters and flags 65', () => {
    const name64 = `read_${'x'.repeat(59)}`;
    expect(name64).toHaveLength(64);
    expect(codes({ name: name64 })).not.toContain('R1_TOO_LONG');
    expect(codes({ name: `${name64}x` })).toContain('R1_TOO_LONG');
  });

  it.each([
    'process_image',
    'handle_request',
    'manage_users',
    'execute_query',
    'perform_search',
    'dispatch_job',
    'do_task',
    'do',
  ])('flags the generic verb in %j', (name) => {
    expect(codes({ name })).toContain('R1_GENERIC_VERB');
  });

  it('checks the generic verb of a name that is not snake_case too', () => {
    expect(codes({ name: 'ProcessData' })).toEqual(
      expect.arrayContaining(['R1_NOT_SNAKE_CASE', 'R1_GENERIC_VERB']),
    );
  });

  it.each(['download_file', 'processor_status', 'image_process', 'resize_image', 'document_search'])(
    'looks only at the whole first word of %j',
    (name) => {
      expect(codes({ name })).not.toContain('R1_GENERIC_VERB');
    },
  );

  it('gives verb + noun guidance for a single-word name, and only then', () => {
    const findings = lint({ name: 'weather' });
    expect(findings.map((f) => [f.code, f.level])).toEqual([['R1_VERB_NOUN', 'guidance']]);
    expect(codes({ name: 'get_weather' })).not.toContain('R1_VERB_NOUN');
    // A broken name gets its error, not advice on top.
    expect(codes({ name: 'Weather' })).not.toContain('R1_VERB_NOUN');
  });
});

describe('R2 description', () => {
  it('reports an empty description once', () => {
    expect(withDescription('')).toEqual(['R2_EMPTY']);
    expect(withDescription(' \n  ')).toEqual(['R2_EMPTY']);
  });

  it('accepts 2 and 3 lines and flags 1 and 4', () => {
    expect(withDescription(descriptionOfLength(100, 2))).toEqual([]);
    expect(withDescription(descriptionOfLength(100, 3))).toEqual([]);
    expect(withDescription(descriptionOfLength(100).replace('\n', ' '))).toEqual(['R2_LINE_COUNT']);
    expect(withDescription(`${descriptionOfLength(100, 3)}\nMore text.`)).toEqual(['R2_LINE_COUNT']);
  });

  it('flags empty lines, a trailing newline and blank lines', () => {
    const base = descriptionOfLength(100);
    expect(withDescription(`${base}\n`)).toEqual(['R2_EMPTY_LINE']);
    const [what, when] = base.split('\n');
    expect(withDescription(`${what}\n   \n${when}`)).toEqual(
      expect.arrayContaining(['R2_EMPTY_LINE', 'R2_NO_TRIGGER']),
    );
    expect(lint({ description: `${base}\n` })[0]?.message).toContain('line 3 is empty');
  });

  it('treats \\r\\n as one newline', () => {
    expect(withDescription(descriptionOfLength(100, 3).replaceAll('\n', '\r\n'))).toEqual([]);
  });

  it('allows exactly 60 and 200 characters, not counting newlines', () => {
    expect(withDescription(descriptionOfLength(60))).toEqual([]);
    expect(withDescription(descriptionOfLength(59))).toEqual(['R2_TOO_SHORT']);
    expect(withDescription(descriptionOfLength(200, 3))).toEqual([]);
    expect(withDescription(descriptionOfLength(201, 3))).toEqual(['R2_TOO_LONG']);
  });

  it('counts characters, not UTF-16 units or bytes', () => {
    const accented = descriptionOfLength(60).replace('Fetch a', 'Fetch é');
    expect(withDescription(accented)).toEqual([]);
    const astral = descriptionOfLength(200).replace('Fetch a', 'Fetch 🙂');
    expect(withDescription(astral)).toEqual([]);
  });

  it.each([
    'Use for converting units; use convert_currency for money.',
    'Use when a value is in the wrong unit; use convert_currency for money.',
    'Use to show values in metric units; use convert_currency for money.',
    'USE  FOR metric units; use convert_currency for money.',
    'Call it when a value is in the wrong unit; use convert_currency for money.',
  ])('accepts the trigger in %j', (when) => {
    expect(withDescription(`Convert a length or weight value from one unit to another.\n${when}`)).toEqual(
      [],
    );
  });

  it.each([
    'Good for converting units; use convert_currency for money.',
    'Whenever values differ in units; convert_currency for money.',
    'Used for metric units, and convert_currency is for money.',
    'Handy for metric units; the user forgets units; see convert_currency.',
  ])('flags the missing trigger in %j', (when) => {
    expect(withDescription(`Convert a length or weight value from one unit to another.\n${when}`)).toEqual([
      'R2_NO_TRIGGER',
    ]);
  });

  it('wants the trigger on line 2, not line 1', () => {
    const description =
      'Use when values are in another unit: convert them now.\nConverts lengths and weights; convert_currency for money.';
    expect(withDescription(description)).toEqual(['R2_NO_TRIGGER']);
  });

  it('looks for a trigger anywhere in a single-line description', () => {
    const single = 'Convert lengths and weights between units, use when a value is in the wrong unit.';
    expect(withDescription(single)).toEqual(['R2_LINE_COUNT']);
    expect(withDescription(single.replace('use when', 'handy if'))).toEqual([
      'R2_LINE_COUNT',
      'R2_NO_TRIGGER',
    ]);
  });

  it('gives guidance when line 2 names no alternative', () => {
    const description =
      'Convert a length or weight value from one unit to another.\nUse when a value is in another unit.';
    expect(lint({ description }).map((f) => [f.code, f.level])).toEqual([['R2_NO_ALTERNATIVE', 'guidance']]);
    expect(withDescription(description.replace('unit.', 'unit, not for money.'))).toEqual([]);
    expect(withDescription(description.replace('unit.', 'unit; ask the user first.'))).toEqual([]);
  });

  it.each([
    ['bold', '**metric**'],
    ['underscore bold', '__metric__'],
    ['italic', '*metric*'],
    ['underscore italic', '_metric_'],
    ['bold phrase', '**metric units only**'],
    ['capitalised italic', '*Only* metric'],
  ])('flags markdown %s', (_kind, text) => {
    const description = `Convert a length or weight value from one unit to another.\n${WHEN}\nWorks with ${text} values.`;
    expect(withDescription(description)).toEqual(['R2_MARKDOWN']);
  });

  it.each(['# Convert units', '## Convert', '#Convert units'])('flags the heading %j', (heading) => {
    expect(withDescription(`${heading} between lengths and weights in any unit.\n${WHEN}`)).toContain(
      'R2_MARKDOWN',
    );
  });

  it('flags a setext heading underline', () => {
    expect(
      withDescription(`Convert a length or weight value from one unit to another.\n===\n${WHEN}`),
    ).toContain('R2_MARKDOWN');
  });

  it.each([
    'find_tools and run_tool',
    'snake_case_name values',
    'mcp__github__* tools',
    'mcp__github__create_issue',
    '*.txt and *.csv files',
    'src/**/x/** paths',
    '2*3*4 products',
    'a * b * c products',
    'the `**/*.ts` glob',
    'the `__init__` file',
    'the `*x*` literal',
    '_private names',
    'C# code',
    'dunder x__y__z names',
  ])('does not take %j for markdown', (text) => {
    const description = `Convert a length or weight value from one unit to another.\n${WHEN}\nAccepts ${text}.`;
    expect(withDescription(description)).not.toContain('R2_MARKDOWN');
  });

  it.each([
    'Returns: {"title": "…"}',
    'returns: [ ... ]',
    'Output: { items }',
    'Result looks like {"title": "x", "url": "y"}',
    "Result is {'title': 'x'}",
    'Result is { title: string, url: string }',
    'See the output schema below',
  ])('flags the output schema dump %j', (text) => {
    const description = `Convert a length or weight value from one unit to another.\n${WHEN}\n${text}`;
    expect(withDescription(description)).toContain('R2_OUTPUT_SCHEMA');
  });

  it('accepts a plain phrase about the result', () => {
    const description = `Convert a value between units and return it with its unit.\n${WHEN}\nReturns the value rounded; fill {unit} yourself.`;
    expect(withDescription(description)).not.toContain('R2_OUTPUT_SCHEMA');
  });

  it('gives guidance on filler, naming it', () => {
    const description = `This tool simply converts a length or weight value between units.\n${WHEN}`;
    const findings = lint({ description });
    expect(findings.map((f) => [f.code, f.level])).toEqual([['R2_FILLER', 'guidance']]);
    expect(findings[0]?.message).toContain('"this tool"');
    expect(findings[0]?.message).toContain('"simply"');
  });

  it('does not take "a tool that" inside the When line for filler', () => {
    const description = `Load a converter for a length or weight value.\nUse when you need a tool that converts units; use convert_currency for money.`;
    expect(withDescription(description)).toEqual([]);
  });
});

describe('R3 parameter descriptions', () => {
  it('flags a parameter without a description, by path', () => {
    const findings = lint({ parameters: withParameter('count', { type: 'integer', default: 1 }) });
    expect(findings.map((f) => f.code)).toEqual(['R3_MISSING_DESCRIPTION']);
    expect(findings[0]?.message).toContain('"count"');
  });

  it.each([
    ['an empty description', { type: 'string', description: '' }],
    ['a blank description', { type: 'string', description: '   ' }],
    ['a description that is not a string', { type: 'string', description: 42 }],
    ['a boolean schema', true],
    ['a schema that is not an object', 'string'],
  ])('flags %s', (_case, schema) => {
    expect(codes({ parameters: withParameter('x', schema, true) })).toEqual(['R3_MISSING_DESCRIPTION']);
  });

  it('walks nested object properties', () => {
    const options = {
      type: 'object',
      default: {},
      description: 'Conversion options; leave out for the usual behaviour. Example: {"strict": true}',
      properties: { strict: { type: 'boolean' } },
    };
    const findings = lint({ parameters: withParameter('options', options) });
    expect(findings.map((f) => f.code)).toEqual(['R3_MISSING_DESCRIPTION']);
    expect(findings[0]?.message).toContain('"options.strict"');
  });

  it('walks the properties of objects inside arrays, nested arrays and tuples', () => {
    const object = { type: 'object', properties: { path: { type: 'string' } } };
    const files = {
      type: 'array',
      default: [],
      description: 'Files to convert, each with its path. Example: [{"path": "a.csv"}]',
      items: object,
    };
    const grid = { ...files, items: { type: 'array', items: object } };
    const tuple = { ...files, items: [object], prefixItems: [object] };
    const messages = lint({
      parameters: { type: 'object', properties: { files, grid, tuple }, required: [] },
    }).map((f) => f.message);
    expect(messages.filter((m) => m.includes('has no description'))).toEqual([
      expect.stringContaining('"files[].path"'),
      expect.stringContaining('"grid[][].path"'),
      expect.stringContaining('"tuple[].path"'),
      expect.stringContaining('"tuple[].path"'),
    ]);
  });

  it.each([
    ['an object', { type: 'object', default: {} }],
    ['an array', { type: 'array', default: [] }],
    ['a nullable array', { type: ['array', 'null'], default: null }],
    ['an enum', { type: 'string', enum: ['ab', 'cd'], default: 'ab' }],
    ['a schema with properties but no type', { properties: {}, default: {} }],
    ['a schema with items but no type', { items: { type: 'string' }, default: [] }],
  ])('wants 20 characters for %s', (_case, schema) => {
    const short = 'ab cd: 19 characters';
    expect(
      codes({ parameters: withParameter('x', { ...schema, description: short.slice(0, 19) }) }),
    ).toContain('R3_TOO_SHORT');
    expect(
      codes({ parameters: withParameter('x', { ...schema, description: `${short.slice(0, 19)}.` }) }),
    ).not.toContain('R3_TOO_SHORT');
  });

  it('lets a plain string parameter have a short description', () => {
    expect(
      codes({ parameters: withParameter('x', { type: 'string', default: '', description: 'A "b".' }) }),
    ).toEqual([]);
  });

  it('gives guidance for parameters without an example, except booleans, enums and examples', () => {
    const parameters = {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to look for, in plain words.' },
        limit: { type: 'integer', default: 5, description: 'Most results to return.' },
        strict: { type: ['boolean', 'null'], default: false, description: 'Match whole words only.' },
        mode: {
          type: 'string',
          enum: ['fast', 'full'],
          default: 'fast',
          description: 'fast or full scan of the index.',
        },
        path: { type: 'string', default: '.', examples: ['src'], description: 'Folder to search in.' },
        glob: { type: 'string', default: '*', description: 'File pattern, e.g. *.ts' },
        url: { type: 'string', default: '', description: 'Page to read, such as the docs home.' },
        name: { type: 'string', default: '', description: 'File name like `a.txt`.' },
      },
      required: ['query'],
    };
    const findings = lint({ parameters });
    expect(findings.map((f) => [f.code, f.level])).toEqual([['R3_NO_EXAMPLE', 'guidance']]);
    expect(findings[0]?.message).toContain('"query", "limit" have no example');
  });

  it('gives guidance when an enum description names none of its values', () => {
    const unit = {
      type: 'string',
      enum: ['m', 'km'],
      description: 'The unit the value is given in, metric.',
    };
    const findings = lint({ parameters: withParameter('unit', unit, true) });
    expect(findings.map((f) => [f.code, f.level])).toEqual([['R3_ENUM_UNEXPLAINED', 'guidance']]);
    const items = {
      type: 'array',
      default: [],
      items: { enum: ['a1', 'b2'] },
      description: 'Which sheets to read.',
    };
    expect(codes({ parameters: withParameter('sheets', items) })).toEqual(['R3_ENUM_UNEXPLAINED']);
    expect(
      codes({ parameters: withParameter('sheets', { ...items, description: 'Sheets to read: a1 or b2.' }) }),
    ).toEqual([]);
  });
});

describe('R4 English only', () => {
  it.each([
    ['Han', '轉換單位'],
    ['hiragana', 'へんかん'],
    ['katakana', 'コンバート'],
    ['Hangul', '변환'],
    ['Cyrillic', 'Конвертировать'],
    ['Greek', 'Μετατροπή'],
    ['Arabic', 'تحويل'],
  ])('flags %s letters in the description', (_script, word) => {
    const findings = lint({ description: GOOD.description.replace('Convert', word) });
    expect(findings.map((f) => f.code)).toEqual(['R4_NON_ENGLISH']);
    expect(findings[0]?.message).toContain('description has letters outside the Latin script');
    expect(findings[0]?.message).toContain([...word][0]);
  });

  it('checks the name, parameter names and parameter descriptions (nested too)', () => {
    const parameters = {
      type: 'object',
      properties: {
        値: { type: 'string', description: 'The value. Example: "1"' },
        options: {
          type: 'object',
          description: 'Options for the conversion. Example: {"unit": "m"}',
          properties: { unit: { type: 'string', description: 'Единица измерения. Example: "m"' } },
        },
      },
      required: ['値', 'options'],
    };
    const messages = lint({ name: 'convert_単位', parameters })
      .filter((f) => f.code === 'R4_NON_ENGLISH')
      .map((f) => f.message);
    expect(messages).toEqual([
      expect.stringMatching(/^name has .*"単位"/),
      expect.stringMatching(/^parameter name "値"/),
      expect.stringMatching(/^description of parameter "options.unit" has .*"Един/),
    ]);
  });

  it.each(['café', 'naïve', 'Ångström', 'Łódź', 'µs', '→ “quotes” — …', '5 °C', '👍', 'Ⅻ', '。'])(
    'accepts %j',
    (text) => {
      const description = GOOD.description.replace(
        'Both units must measure the same quantity.',
        `Units must match: ${text}.`,
      );
      expect(withDescription(description)).toEqual([]);
    },
  );
});

describe('R5 defaults', () => {
  it('wants a default on an optional parameter', () => {
    const findings = lint({
      parameters: withParameter('limit', { type: 'integer', description: 'Most results. e.g. 5' }),
    });
    expect(findings.map((f) => f.code)).toEqual(['R5_MISSING_DEFAULT']);
    expect(findings[0]?.message).toContain('"limit"');
  });

  it('refuses a default on a required parameter', () => {
    const limit = { type: 'integer', default: 5, description: 'Most results. e.g. 5' };
    expect(codes({ parameters: withParameter('limit', limit, true) })).toEqual(['R5_REQUIRED_HAS_DEFAULT']);
  });

  it.each([null, false, 0, ''])('counts default %j as declared', (value) => {
    const x = {
      type: ['string', 'number', 'boolean', 'null'],
      default: value,
      description: 'Any value. e.g. 5',
    };
    expect(codes({ parameters: withParameter('x', x) })).toEqual([]);
  });

  it('checks only top-level parameters', () => {
    const options = {
      type: 'object',
      default: {},
      description: 'Conversion options. Example: {"strict": true}',
      properties: { strict: { type: 'boolean', description: 'Refuse rounding.' } },
    };
    expect(codes({ parameters: withParameter('options', options) })).toEqual([]);
  });

  it('treats every parameter as optional when required is not a list, and ignores odd entries', () => {
    const parameters = {
      type: 'object',
      properties: { a: { type: 'string', description: 'A value. e.g. "x"' } },
      required: 'a',
    };
    expect(codes({ parameters })).toEqual(['R5_MISSING_DEFAULT']);
    expect(codes({ parameters: { ...parameters, required: [1, null, 'a'] } })).toEqual([]);
  });
});

describe('odd input', () => {
  it.each([
    ['no properties', { type: 'object' }],
    ['an empty schema', {}],
    ['properties as an array', { type: 'object', properties: [{ description: 'x' }] }],
    ['properties null', { type: 'object', properties: null }],
    ['parameters null', null],
    ['parameters an array', []],
    ['parameters a string', 'object'],
    ['a type that is a number', { type: 7, properties: {} }],
  ])('lints a schema with %s without throwing', (_case, parameters) => {
    expect(codes({ parameters: parameters as Record<string, unknown> })).toEqual([]);
  });

  it('survives a cyclic schema', () => {
    const node: Record<string, unknown> = {
      type: 'object',
      description: 'A tree node. Example: {}',
      default: {},
    };
    node.properties = { child: node };
    node.items = node;
    expect(() =>
      lintTool({ ...GOOD, parameters: { type: 'object', properties: { root: node } } }),
    ).not.toThrow();
  });

  it(`stops walking below ${MAX_PARAMETER_DEPTH} levels`, () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 50; i += 1) schema = { type: 'object', properties: { deeper: schema } };
    const missing = lintTool({ ...GOOD, parameters: schema }).filter(
      (f) => f.code === 'R3_MISSING_DESCRIPTION',
    );
    expect(missing).toHaveLength(MAX_PARAMETER_DEPTH + 1);
  });

  it('lints a name and description that are not strings as empty ones', () => {
    const input = { name: 42, description: null, parameters: {} } as unknown as LintInput;
    expect(lintTool(input).map((f) => f.code)).toEqual(['R1_NOT_SNAKE_CASE', 'R2_EMPTY']);
  });
});

describe('the tool generation guide', () => {
  it('shows a worked example that passes every rule, guidance included', () => {
    expect(lintTool(EXAMPLE_TOOL_JSON as unknown as LintInput)).toEqual([]);
  });

  it('shows the example tool.json as valid JSON', () => {
    const block = /```json\n([\s\S]*?)\n```/.exec(TOOL_GENERATE_GUIDE)?.[1];
    expect(JSON.parse(block ?? '')).toEqual(EXAMPLE_TOOL_JSON);
  });

  it('lists every finding code under its level', () => {
    const listed = (level: string): string[] =>
      (new RegExp(`^${level}: ([\\s\\S]*?)(?:\\n\\w+:|\\n\\n)`, 'm').exec(TOOL_GENERATE_GUIDE)?.[1] ?? '')
        .split(/[\s,]+/)
        .filter(Boolean);
    const byLevel = (level: string): string[] =>
      Object.entries(LINT_CODES)
        .filter(([, l]) => l === level)
        .map(([code]) => code);
    expect(listed('error').sort()).toEqual(byLevel('error').sort());
    expect(listed('guidance').sort()).toEqual(byLevel('guidance').sort());
  });

  it('gives R2 examples that behave as labelled', () => {
    const section = TOOL_GENERATE_GUIDE.slice(
      TOOL_GENERATE_GUIDE.indexOf('## R2'),
      TOOL_GENERATE_GUIDE.indexOf('## R3'),
    );
    const blocks = [...section.matchAll(/^(Good|Bad)[^\n]*:\n((?: {2}[^\n]+\n)+)/gm)].map(
      ([, label, body]) => ({
        label,
        description: (body ?? '')
          .trimEnd()
          .split('\n')
          .map((line) => line.slice(2))
          .join('\n'),
      }),
    );
    expect(blocks.map((b) => b.label)).toEqual(['Good', 'Good', 'Bad']);
    for (const { label, description } of blocks) {
      const errors = lintTool({ ...GOOD, description }).filter((f) => f.level === 'error');
      if (label === 'Good') expect(errors, description).toEqual([]);
      else expect(errors.length, description).toBeGreaterThan(2);
    }
  });
});
