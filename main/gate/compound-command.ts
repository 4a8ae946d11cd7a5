// Compound command lines (SPEC §8): a line that chains, pipes, redirects or substitutes never matches an allow rule.

// `&` covers `&&` and a background `&`, `|` covers `||`; a newline or carriage return separates commands as `;` does.
const OPERATORS: Array<[RegExp, string]> = [
  [/\$\(/, '$('],
  [/`/, '`'],
  [/&&/, '&&'],
  [/\|\|/, '||'],
  [/;/, ';'],
  [/\|/, '|'],
  [/&/, '&'],
  [/>/, '>'],
  [/</, '<'],
  [/[\n\r]/, 'a line break'],
];

/** The first compound operator in a command line, or null for a simple command. */
export function compoundOperator(line: string): string | null {
  for (const [pattern, name] of OPERATORS) if (pattern.test(line)) return name;
  return null;
}

/** Whether a command line chains, pipes, redirects or substitutes commands. */
export function isCompoundCommand(line: string): boolean {
  return compoundOperator(line) !== null;
}
