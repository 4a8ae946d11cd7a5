// Every code the design-rule linter emits, with its level, so a code's level can never drift between call sites.
import type { LintFinding, LintLevel } from './types';

/** Each finding code mapped to its level: the checked items of the design rules (docs/tools.md, "Design rules") are errors, the rest guidance. */
export const LINT_CODES = {
  R1_NOT_SNAKE_CASE: 'error',
  R1_TOO_LONG: 'error',
  R1_GENERIC_VERB: 'error',
  R1_VERB_NOUN: 'guidance',
  R2_EMPTY: 'error',
  R2_LINE_COUNT: 'error',
  R2_EMPTY_LINE: 'error',
  R2_TOO_SHORT: 'error',
  R2_TOO_LONG: 'error',
  R2_NO_TRIGGER: 'error',
  R2_MARKDOWN: 'error',
  R2_OUTPUT_SCHEMA: 'error',
  R2_FILLER: 'guidance',
  R2_NO_ALTERNATIVE: 'guidance',
  R3_MISSING_DESCRIPTION: 'error',
  R3_TOO_SHORT: 'error',
  R3_NO_EXAMPLE: 'guidance',
  R3_ENUM_UNEXPLAINED: 'guidance',
  R4_NON_ENGLISH: 'error',
  R5_MISSING_DEFAULT: 'error',
  R5_REQUIRED_HAS_DEFAULT: 'error',
} as const satisfies Record<string, LintLevel>;

/**
 * The design page's musts that docs/tools.md ("Design rules") lists as guidance: the When line names the alternative tool, no filler, a
 * parameter example. Errors for built-ins (which ship with the app and can be fixed), guidance for others.
 */
export const BUILTIN_MUSTS: ReadonlySet<LintCode> = new Set<LintCode>([
  'R2_NO_ALTERNATIVE',
  'R2_FILLER',
  'R3_NO_EXAMPLE',
]);

/** A finding code of the linter. */
export type LintCode = keyof typeof LINT_CODES;

/** A finding with the level its code always has. */
export function lintFinding(code: LintCode, message: string): LintFinding {
  return { code, level: LINT_CODES[code], message };
}

/** The finding at the level it has for a built-in: a design-page must becomes an error. */
export function strictFinding(finding: LintFinding): LintFinding {
  return BUILTIN_MUSTS.has(finding.code as LintCode) ? { ...finding, level: 'error' } : finding;
}
