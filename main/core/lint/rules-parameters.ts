// R3: every parameter says How (type, unit, meaning of enum values) / When / Example.
import { lintFinding } from './codes';
import type { ParameterNode } from './schema-walk';
import { descriptionOf, enumValues, isNontrivial, isRecord, schemaTypes } from './schema-walk';
import { charCount, plural, quote } from './text';
import type { LintFinding } from './types';

/** Fewest characters the description of an object, array or enum parameter may have. */
export const MIN_NONTRIVIAL_DESCRIPTION_LENGTH = 20;

// What counts as an example: "e.g.", "for example", "such as", or a literal in backquotes or quotes.
const EXAMPLE = /\be\.g\.|\bfor (?:example|instance)\b|\bexamples?\b|\bsuch as\b|`[^`\n]+`|"[^"\n]+"/i;

/** R3 findings for the parameters of a tool (nested ones included; see walkParameters). */
export function lintParameterDescriptions(parameters: readonly ParameterNode[]): LintFinding[] {
  const findings: LintFinding[] = [];
  const withoutExample: string[] = [];
  for (const node of parameters) {
    const description = descriptionOf(node.schema);
    if (description === '') {
      findings.push(
        lintFinding(
          'R3_MISSING_DESCRIPTION',
          `parameter "${node.path}" has no description: say How (type, unit, meaning of values), ` +
            `When to set it, and give an Example`,
        ),
      );
      continue;
    }
    const length = charCount(description);
    if (isNontrivial(node.schema) && length < MIN_NONTRIVIAL_DESCRIPTION_LENGTH) {
      findings.push(
        lintFinding(
          'R3_TOO_SHORT',
          `parameter "${node.path}" is ${kindOf(node.schema)} and its description is ${plural(length, 'character')}; ` +
            `write at least ${MIN_NONTRIVIAL_DESCRIPTION_LENGTH}: ${howToDescribe(node.schema)}`,
        ),
      );
    }
    const unexplained = unexplainedEnum(node.schema, description);
    if (unexplained) {
      findings.push(
        lintFinding(
          'R3_ENUM_UNEXPLAINED',
          `parameter "${node.path}" does not mention its values (${unexplained}): say what each one means`,
        ),
      );
    }
    if (needsExample(node.schema) && !EXAMPLE.test(description)) withoutExample.push(node.path);
  }
  if (withoutExample.length > 0) {
    findings.push(
      lintFinding(
        'R3_NO_EXAMPLE',
        `parameter ${listPaths(withoutExample)} ${withoutExample.length === 1 ? 'has' : 'have'} ` +
          `no example: add one (e.g. 'Example: "report.pdf"') or an "examples" array in the schema`,
      ),
    );
  }
  return findings;
}

// A schema may have thousands of parameters: a message names the first ten and counts the rest.
function listPaths(paths: readonly string[]): string {
  const shown = paths.slice(0, 10).map((path) => `"${path}"`);
  return paths.length > 10 ? `${shown.join(', ')} and ${paths.length - 10} more` : shown.join(', ');
}

function kindOf(schema: unknown): string {
  const types = schemaTypes(schema);
  if (types.includes('array') || (isRecord(schema) && schema.items !== undefined)) return 'an array';
  if (types.includes('object') || (isRecord(schema) && isRecord(schema.properties))) return 'an object';
  return 'an enum';
}

function howToDescribe(schema: unknown): string {
  switch (kindOf(schema)) {
    case 'an array':
      return 'say what each item is, how many are allowed, and give an example';
    case 'an object':
      return 'say what the object holds and when to pass it, and give an example';
    default:
      return 'say what each value means and when to pick it';
  }
}

// Booleans and enums need no example (their values are the example); nor does a schema with `examples`.
function needsExample(schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  if (schema.examples !== undefined || schema.example !== undefined || schema.const !== undefined)
    return false;
  if (enumValues(schema) !== undefined) return false;
  const types = schemaTypes(schema).filter((type) => type !== 'null');
  return !(types.length === 1 && types[0] === 'boolean');
}

function unexplainedEnum(schema: unknown, description: string): string | undefined {
  const values = (enumValues(schema) ?? []).filter(
    (value): value is string | number =>
      (typeof value === 'string' && value !== '') || typeof value === 'number',
  );
  if (values.length < 2) return undefined;
  const text = description.toLowerCase();
  const mentioned = values
    .slice(0, MAX_ENUM_VALUES_CHECKED)
    .some((value) => mentionsWord(text, String(value).toLowerCase()));
  return mentioned
    ? undefined
    : values
        .slice(0, 10)
        .map((value) => quote(String(value), 20))
        .join(', ') + (values.length > 10 ? `, … (${values.length} values)` : '');
}

// Enum values are tool-supplied text: they are searched for as plain text, never built into a regular expression
// (a value such as "last-day" once made an invalid `u`-flag pattern and took every tool down with it).
const MAX_ENUM_VALUES_CHECKED = 200;

/** Whether `word` occurs in `text` with no letter, digit or `_` right before or after it (both lowercased). */
export function mentionsWord(text: string, word: string): boolean {
  if (word === '' || word.length > text.length) return false;
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (!isWordChar(codePointBefore(text, at)) && !isWordChar(text.codePointAt(at + word.length)))
      return true;
  }
  return false;
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

function isWordChar(codePoint: number | undefined): boolean {
  return codePoint !== undefined && WORD_CHAR.test(String.fromCodePoint(codePoint));
}

function codePointBefore(text: string, at: number): number | undefined {
  if (at === 0) return undefined;
  const low = text.charCodeAt(at - 1);
  if (low >= 0xdc00 && low <= 0xdfff && at >= 2) {
    const high = text.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(at - 2);
  }
  return low;
}
