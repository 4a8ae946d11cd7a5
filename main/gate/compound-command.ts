// Compound command lines (docs/security.md): a line that chains, pipes or redirects never matches an allow
// rule. The operators are found by the shell-line reader, outside quotes only.
import { readCommandLine } from '../../tools/sdk/shell/parse';
import type { CanonicalArgument } from './canonical-argument';

/** The first operator (`;`, `&&`, `|`, `>`, 'a line break'…) outside quotes in a command line, or null. */
export function compoundOperator(line: string): string | null {
  return readCommandLine(line).operator;
}

/** Whether a command line chains, pipes or redirects commands. */
export function isCompoundCommand(line: string): boolean {
  return compoundOperator(line) !== null;
}

/**
 * The operator that chains a call's command line, read from the line itself, or null: what makes a call compound
 * does not depend on whether any rules could be loaded.
 */
export function compoundOf(canonical: CanonicalArgument): string | null {
  return canonical.kind === 'command' ? canonical.reading.operator : null;
}
