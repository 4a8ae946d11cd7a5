// Reading a command line as /bin/sh will (docs/security.md): the argv of a simple command after quote and
// backslash removal, in one normal form, or why the line is not one plainly known command.
import type { SimpleCommand } from './commands';
import { splitCommands } from './commands';
import type { Word, WordPart } from './lex';
import { clip, lex } from './lex';
import { quoteArgv } from './quote';

/** What a command line is, read without running anything. */
export interface CommandReading {
  /** The argv of a simple, fully known command; null otherwise. */
  argv: string[] | null;
  /** `argv` re-quoted with quoteArgv: the one text rule patterns are matched against; null with argv. */
  normal: string | null;
  /** The first control or redirection operator (`;`, `&&`, `|`, `>`, 'a line break'…), or null. */
  operator: string | null;
  /** What the reader could not resolve, in words (`$HOME` (a parameter expansion)…); empty when all is known. */
  unresolved: string[];
}

/** Options of the reader. */
export interface ReadOptions {
  /** The home folder the command's shell has: `~` and `~/x` expand to it. Without it, `~` is unresolved. */
  home?: string;
}

const OPAQUE_NAMES: Record<string, string> = {
  command: 'a command substitution',
  backquote: 'a command substitution',
  arithmetic: 'an arithmetic expansion',
  'ansi-c': "a $'…' string (bash and dash read it differently)",
  locale: 'a $"…" string (bash and dash read it differently)',
  parameter: 'a parameter expansion',
};

/** Reads a command line; see CommandReading. */
export function readCommandLine(line: string, options: ReadOptions = {}): CommandReading {
  const lexed = lex(line);
  const { commands, operators } = splitCommands(lexed.tokens);
  const unresolved = [...lexed.problems];
  const argvs = commands.map((command) => resolveCommand(command, options, unresolved));
  if (commands.length === 0) unresolved.push('no command at all');
  const first = operators[0];
  const operator = first === undefined ? null : first === '\n' ? 'a line break' : first;
  const argv = argvs.length === 1 && operator === null && unresolved.length === 0 ? (argvs[0] ?? null) : null;
  const known = argv && argv.length > 0 ? argv : null;
  return {
    argv: known,
    normal: known ? quoteArgv(known) : null,
    operator,
    unresolved: [...new Set(unresolved)],
  };
}

// The argv of one simple command, noting in `unresolved` whatever the shell would work out at run time.
function resolveCommand(command: SimpleCommand, options: ReadOptions, unresolved: string[]): string[] {
  for (const keyword of command.keywords) unresolved.push(`\`${keyword}\` (a shell keyword)`);
  for (const word of command.assignments)
    unresolved.push(
      `\`${clip(word.raw)}\` (a variable set for the command, e.g. one that makes it run a program)`,
    );
  for (const redirect of command.redirects)
    if (redirect.target) resolveWord(redirect.target, options, unresolved);
  return command.words.map((word) => resolveWord(word, options, unresolved));
}

/** The text of one word after quote removal, or '' with the reason in `unresolved`. */
export function resolveWord(word: Word, options: ReadOptions, unresolved: string[]): string {
  let text = '';
  const before = unresolved.length;
  const tilde = tildePrefix(word.parts);
  let parts = word.parts;
  if (tilde) {
    if (tilde.user !== '') unresolved.push(`\`${clip(word.raw)}\` (another user's home folder)`);
    else if (options.home === undefined) unresolved.push(`\`${clip(word.raw)}\` (the home folder)`);
    else text = options.home;
    parts = tilde.rest;
  }
  for (const part of parts) {
    if (part.kind === 'text') text += part.text;
    else if (part.kind === 'param') unresolved.push(`\`${clip(part.raw)}\` (a parameter expansion)`);
    else unresolved.push(`\`${clip(part.raw)}\` (${OPAQUE_NAMES[part.what] ?? 'an expansion'})`);
  }
  const pattern = unquotedPattern(parts);
  if (/[*?[]/.test(pattern)) unresolved.push(`\`${clip(word.raw)}\` (a glob pattern)`);
  if (hasBraceExpansion(pattern)) unresolved.push(`\`${clip(word.raw)}\` (a brace expansion)`);
  return unresolved.length === before ? text : '';
}

/** A leading unquoted `~` and the login name after it, up to the first unquoted `/` (POSIX §2.6.1). */
export function tildePrefix(parts: readonly WordPart[]): { user: string; rest: WordPart[] } | null {
  const first = parts[0];
  if (first?.kind !== 'text' || first.quoted || !first.text.startsWith('~')) return null;
  const slash = first.text.indexOf('/');
  // With anything quoted or expanded before the first slash, the `~` stays a plain character.
  if (slash === -1 && parts.length > 1) return null;
  const user = first.text.slice(1, slash === -1 ? undefined : slash);
  const restText = slash === -1 ? '' : first.text.slice(slash);
  const rest: WordPart[] = restText ? [{ kind: 'text', text: restText, quoted: false }] : [];
  return { user, rest: [...rest, ...parts.slice(1)] };
}

// The word's unquoted characters, with every quoted character or expansion replaced by a neutral one.
function unquotedPattern(parts: readonly WordPart[]): string {
  return parts.map((part) => (part.kind === 'text' && !part.quoted ? part.text : '\u0001')).join('');
}

// bash (as /bin/sh too) expands `{a,b}` and `{1..3}`; an unquoted `{` with a later unquoted `}` is treated as one
// (an empty `{}` is not). One pass from left to right: each search starts where the last one ended.
export function hasBraceExpansion(pattern: string): boolean {
  let from = 0;
  for (;;) {
    const open = pattern.indexOf('{', from);
    if (open === -1) return false;
    const close = pattern.indexOf('}', open + 1);
    if (close === -1) return false;
    if (close > open + 1) return true;
    from = close + 1;
  }
}
