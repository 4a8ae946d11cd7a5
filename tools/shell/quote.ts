// Quoting words for /bin/sh: the one way argv becomes a command line (the sandbox wrap, the normal form of rules).

// Characters that never need quoting in a POSIX shell word.
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One word as /bin/sh reads it back unchanged: bare when it is plain, else in single quotes. */
export function quoteWord(word: string): string {
  if (PLAIN.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command line that runs exactly `argv` (no expansion, no word splitting). */
export function quoteArgv(argv: readonly string[]): string {
  return argv.map(quoteWord).join(' ');
}
