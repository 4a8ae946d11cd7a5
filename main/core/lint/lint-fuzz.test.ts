// Property-based: the linter reads text from tool.json files and MCP servers, so every shape of name, enum and
// schema must lint without throwing and give findings that make sense (codes, levels, bounded messages).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_MUSTS, LINT_CODES } from './codes';
import type { LintCode } from './codes';
import { lintTool } from './lint-tool';
import { mentionsWord } from './rules-parameters';
import type { LintFinding } from './types';

/** Text that has broken regular expressions and parsers before: metacharacters, escapes, `u`-flag traps. */
const NASTY = [
  'last-day',
  'last-week',
  'last-month',
  '-',
  '--',
  'a-z',
  '[a-z]',
  '\\',
  '\\d',
  '\\p{L}',
  '\\u{1F600}',
  '(?<x>a)',
  '(?=',
  ')',
  '*',
  '+?',
  '{1,2}',
  '{',
  '}',
  '|',
  '^$',
  '.',
  '/',
  '\\/',
  '#',
  '**bold**',
  '__init__',
  '`code`',
  '"quoted"',
  '\u0000',
  '\u2028',
  '\ud800',
  '\udfff',
  '😀',
  'é',
  'İ',
  'ΑΣ',
  '日本語',
  ' ',
  '',
  '0',
  '-1',
  '1e309',
  'constructor',
  '__proto__',
  'toString',
];

const text = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme-composite', maxLength: 30 }),
  fc.constantFrom(...NASTY).map((piece) => piece.repeat(2000)),
);

const enumValue = fc.oneof(
  text,
  fc.integer(),
  fc.double(),
  fc.constant(null),
  fc.boolean(),
  fc.array(text, { maxLength: 3 }),
  fc.dictionary(text, text, { maxKeys: 3 }),
);

// A parameter schema of any shape: sane ones, odd types, enums of anything, nesting through properties and items.
const schema = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.record(
      {
        type: fc.oneof(
          fc.constantFrom('string', 'object', 'array', 'integer', 'boolean', 'null'),
          text,
          fc.integer(),
        ),
        description: fc.oneof(text, fc.integer(), fc.constant(null)),
        enum: fc.oneof(fc.array(enumValue, { maxLength: 6 }), text, fc.constant(null)),
        default: enumValue,
        items: tie('node'),
        properties: fc.dictionary(text, tie('node'), { maxKeys: 4 }),
        required: fc.oneof(fc.array(text, { maxLength: 3 }), text),
        examples: fc.array(enumValue, { maxLength: 2 }),
      },
      { requiredKeys: [] },
    ),
    fc.constant(true),
    fc.constant(false),
    fc.constant(null),
    text,
    fc.integer(),
    fc.array(tie('node'), { maxLength: 2 }),
  ),
})).node;

const parameters = fc.oneof(
  fc.record({ type: fc.constant('object'), properties: fc.dictionary(text, schema, { maxKeys: 6 }) }),
  schema,
);

// What the linter is allowed to say: a known code, the level of that code (built-in musts raised when strict),
// and a message a person can read in one go.
function expectSane(findings: LintFinding[], strict: boolean): void {
  for (const finding of findings) {
    expect(Object.hasOwn(LINT_CODES, finding.code), finding.code).toBe(true);
    const level = LINT_CODES[finding.code as LintCode];
    const raised = strict && BUILTIN_MUSTS.has(finding.code as LintCode);
    expect(finding.level).toBe(raised ? 'error' : level);
    expect(typeof finding.message).toBe('string');
    expect(finding.message.length).toBeGreaterThan(10);
    expect(finding.message.length).toBeLessThan(3000);
  }
}

describe('lintTool on anything a tool can hold (property-based)', () => {
  it('never throws and gives sane findings for any name, description and schema (600 cases)', () => {
    fc.assert(
      fc.property(text, text, parameters, fc.boolean(), (name, description, params, strict) => {
        const findings = lintTool({
          name,
          description,
          parameters: params as Record<string, unknown>,
          strict,
        });
        expectSane(findings, strict);
      }),
      { seed: 1212, numRuns: 600 },
    );
  });

  it('lints every enum value shape without building a bad regular expression (400 cases)', () => {
    fc.assert(
      fc.property(fc.array(enumValue, { minLength: 0, maxLength: 8 }), text, (values, description) => {
        const findings = lintTool({
          name: 'list_events',
          description:
            'List the events of a period from the calendar.\nUse when asked about events; see read_file.',
          parameters: {
            type: 'object',
            properties: { period: { type: 'string', enum: values, description, default: values[0] ?? '' } },
          },
        });
        expectSane(findings, false);
      }),
      { seed: 1213, numRuns: 400 },
    );
  });

  it('finds an enum value the description names as a word, whatever characters it holds (300 cases)', () => {
    const value = fc.oneof(
      fc.constantFrom(...NASTY.filter((v) => v.trim() !== '')),
      fc.string({ minLength: 1 }),
    );
    fc.assert(
      fc.property(value, value, (first, second) => {
        fc.pre(first !== second && first.trim() !== '' && second.trim() !== '');
        const findings = lintTool({
          name: 'list_events',
          description:
            'List the events of a period from the calendar.\nUse when asked about events; see read_file.',
          parameters: {
            type: 'object',
            properties: {
              period: {
                type: 'string',
                enum: [first, second],
                default: first,
                description: `Which period: ${first} for the first kind, or the other one.`,
              },
            },
          },
        });
        expect(findings.map((f) => f.code)).not.toContain('R3_ENUM_UNEXPLAINED');
      }),
      { seed: 1214, numRuns: 300 },
    );
  });

  it('reads the real MCP enum that once took every tool down', () => {
    const findings = lintTool({
      name: 'search_news',
      description:
        'Search recent news articles by topic.\nUse when asked about current events; search_web for pages.',
      parameters: {
        type: 'object',
        properties: {
          since: {
            type: 'string',
            enum: ['last-day', 'last-week', 'last-month'],
            default: 'last-week',
            description: 'How far back to search.',
          },
        },
      },
    });
    expect(findings.map((f) => f.code)).toEqual(['R3_ENUM_UNEXPLAINED']);
    expect(findings[0]?.message).toContain('"last-day", "last-week", "last-month"');
    const named = lintTool({
      name: 'search_news',
      description:
        'Search recent news articles by topic.\nUse when asked about current events; search_web for pages.',
      parameters: {
        type: 'object',
        properties: {
          since: {
            type: 'string',
            enum: ['last-day', 'last-week', 'last-month'],
            default: 'last-week',
            description: 'How far back: last-day, last-week or last-month.',
          },
        },
      },
    });
    expect(named).toEqual([]);
  });

  it('bounds the time a runaway description or a schema of many parameters takes', () => {
    const started = Date.now();
    const unclosed = `**a ${'**a '.repeat(8000)}`;
    const many = Object.fromEntries(
      Array.from({ length: 5000 }, (_, i) => [`p${i}_${'k'.repeat(200)}`, { type: 'string' }]),
    );
    const findings = lintTool({
      name: 'x'.repeat(100_000),
      description: `${unclosed}\n${unclosed}`,
      parameters: { type: 'object', properties: many },
    });
    expectSane(findings, false);
    // Generous: the point is no quadratic blow-up (that took minutes), not speed.
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('mentionsWord', () => {
  it.each([
    ['pick last-day or last-week', 'last-day', true],
    ['pick last-days', 'last-day', false],
    ['pick xlast-day', 'last-day', false],
    ['(?<x>a) is a group', '(?<x>a)', true],
    ['a😀b', '😀', false],
    ['pick 😀 now', '😀', true],
    ['é😀', 'é', true],
    ['café', 'caf', false],
    ['', 'a', false],
    ['a', '', false],
  ])('in %j finds %j: %s', (text, word, found) => {
    expect(mentionsWord(text, word)).toBe(found);
  });
});
