// R4: names and every description are in English; other languages belong only in what handlers return.
import { lintFinding } from './codes';
import type { ParameterNode } from './schema-walk';
import { descriptionOf } from './schema-walk';
import type { LintFinding } from './types';

// A letter of any script but Latin. Common and Inherited are allowed too: they hold no language's
// letters, only shared signs such as µ (micro) and combining accents.
const NON_LATIN_LETTER = /[^\P{L}\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/gu;

/** What R4 reads of a tool. */
export interface LanguageInput {
  name: string;
  description: string;
  parameters: readonly ParameterNode[];
}

/** R4 findings: one per field (name, description, parameter name or description) with non-Latin letters. */
export function lintLanguage(input: LanguageInput): LintFinding[] {
  const fields: Array<[string, string]> = [
    ['name', input.name],
    ['description', input.description],
    ...input.parameters.flatMap((node): Array<[string, string]> => [
      [`parameter name "${node.path}"`, node.key],
      [`description of parameter "${node.path}"`, descriptionOf(node.schema)],
    ]),
  ];
  return fields.flatMap(([field, text]) => {
    const letters = nonLatinLetters(text);
    if (letters.length === 0) return [];
    return [
      lintFinding(
        'R4_NON_ENGLISH',
        `${field} has letters outside the Latin script ("${letters.join('')}"): write it in English; ` +
          `other languages belong only in messages the handler returns`,
      ),
    ];
  });
}

/** The distinct non-Latin letters of `text`, at most ten, in order of appearance. */
export function nonLatinLetters(text: string): string[] {
  return [...new Set(text.match(NON_LATIN_LETTER) ?? [])].slice(0, 10);
}
