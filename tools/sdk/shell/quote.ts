// Quoting words for /bin/sh: the one way argv becomes a command line (the sandbox wrap, the normal form of rules).

// Characters that never need quoting in a POSIX shell word.
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

// In command position a bare `NAME=value` is an assignment and a bare reserved word is shell syntax, not a program.
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const RESERVED = new Set(
  'case do done elif else esac fi for function if in select then time until while coproc'.split(' '),
);

/** One word as /bin/sh reads it back unchanged: bare when it is plain, else in single quotes. */
export function quoteWord(word: string): string {
  if (PLAIN.test(word)) return word;
  return singleQuoted(word);
}

/** A command line that runs exactly `argv` (no expansion, no word splitting, no assignment or keyword). */
export function quoteArgv(argv: readonly string[]): string {
  return argv
    .map((word, i) =>
      i === 0 && (ASSIGNMENT.test(word) || RESERVED.has(word)) ? singleQuoted(word) : quoteWord(word),
    )
    .join(' ');
}

function singleQuoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
