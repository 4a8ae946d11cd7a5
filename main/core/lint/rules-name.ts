// R1: the name is the primary semantic carrier — the model picks a tool by its name before it sees any schema.
import { lintFinding } from './codes';
import type { LintFinding } from './types';
import { charCount, quote } from './text';

/** The snake_case form every tool name must have. */
export const SNAKE_CASE_NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** The longest name allowed, in characters. */
export const MAX_NAME_LENGTH = 64;

/** Verbs that say nothing about what a tool does; a name must not start with one. */
export const GENERIC_VERBS: readonly string[] = [
  'process',
  'handle',
  'manage',
  'execute',
  'perform',
  'dispatch',
  'do',
];

/** R1 findings for a tool name. */
export function lintName(name: string): LintFinding[] {
  const findings: LintFinding[] = [];
  if (!SNAKE_CASE_NAME.test(name)) {
    const suggestion = toSnakeCase(name);
    findings.push(
      lintFinding(
        'R1_NOT_SNAKE_CASE',
        `name ${quote(name, 80)} is not snake_case: use lowercase letters, digits and single underscores, ` +
          `starting with a letter` +
          // A suggestion longer than a name may be would only trade this error for R1_TOO_LONG.
          (suggestion !== undefined && suggestion !== name && suggestion.length <= MAX_NAME_LENGTH
            ? ` (e.g. "${suggestion}")`
            : ' (e.g. "search_web")'),
      ),
    );
  }
  const length = charCount(name);
  if (length > MAX_NAME_LENGTH) {
    findings.push(
      lintFinding(
        'R1_TOO_LONG',
        `name is ${length} characters; keep it at most ${MAX_NAME_LENGTH}: a short verb + noun (e.g. "read_file")`,
      ),
    );
  }
  const words = nameWords(name);
  const first = words[0];
  if (first !== undefined && GENERIC_VERBS.includes(first)) {
    findings.push(
      lintFinding(
        'R1_GENERIC_VERB',
        `name starts with the generic verb "${first}", which does not tell the model what the tool does: ` +
          `start with a specific verb (e.g. "resize_image" rather than "process_image")`,
      ),
    );
  }
  if (words.length === 1 && findings.length === 0) {
    findings.push(
      lintFinding(
        'R1_VERB_NOUN',
        `name ${quote(name)} is a single word: prefer verb + noun (e.g. "search_web", "read_file"), ` +
          `consistent with the names of sibling tools`,
      ),
    );
  }
  return findings;
}

// Splits on anything that is not a letter or digit and on camelCase humps, so "ProcessData" and
// "process-data" are checked for a generic verb too (they are already flagged as not snake_case).
function nameWords(name: string): string[] {
  return name
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}

function toSnakeCase(name: string): string | undefined {
  const snake = nameWords(name).join('_');
  return SNAKE_CASE_NAME.test(snake) ? snake : undefined;
}
