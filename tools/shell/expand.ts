// The second mode of the shell-line reader (docs/security.md): every word of every simple command of a line,
// nested ones included (`$(…)`, here-documents, `sh -c '…'`, `eval`), expanded as the shell would with a known
// environment, for the sensitive-target check. What cannot be worked out is kept as `*` and reported.
import type { SimpleCommand } from './commands';
import { assignmentParts, splitCommands } from './commands';
import type { Lookup } from './expand-word';
import { expandParts, UNKNOWN } from './expand-word';
import type { WordPart } from './lex';
import { lex } from './lex';
import { gatherVariables } from './variables';

/** The environment the command's shell starts with. */
export interface ShellEnvironment {
  /** Variables it starts with (the allow-listed environment, HOME, PWD); any other is unset. */
  variables: Readonly<Record<string, string>>;
  /** More names set to values unknown here (TMPDIR set by the sandbox…), beyond those the shells set themselves. */
  unknown?: readonly string[];
}

/** One word of the line and every value it may take; a piece nobody can know reads `*`. */
export interface ExpandedWord {
  raw: string;
  values: string[];
  /** What could not be worked out (`$(id)` (worked out only when it runs)…), or null. */
  unresolvable: string | null;
}

/** A line expanded: its words, its simple commands, the folders it `cd`s into, and what stayed unknown. */
export interface ExpandedLine {
  /** Every word, assignment value and redirection target of every simple command, nested ones included. */
  words: ExpandedWord[];
  /** The words of each simple command, nested ones included. */
  commands: ExpandedWord[][];
  /** The folders `cd` and `pushd` change to (a bare `cd` goes home). */
  directories: ExpandedWord[];
  unresolvable: string[];
}

/** Bounds on the work one line may cause; past them the rest is reported as unresolvable. */
const LIMITS = { depth: 4, commands: 400, words: 4000 };

// Blanks or shell syntax in a value: it may be a command line of its own (`sh -c '…'`, `eval`, `ssh host '…'`).
const LINE_LIKE = /[\s;&|<>()$`'"\\]/;

/** Expands every word of `line`; see ExpandedLine. */
export function expandLine(line: string, environment: ShellEnvironment): ExpandedLine {
  const out: ExpandedLine = { words: [], commands: [], directories: [], unresolvable: [] };
  const commands: SimpleCommand[] = [];
  collect(line, 0, commands, out.unresolvable);
  const variables = gatherVariables(commands, environment);
  const seenLines = new Set<string>([line]);
  expandCommands(commands, variables, environment, out, seenLines, 0);
  out.unresolvable = [...new Set(out.unresolvable)];
  return out;
}

function expandCommands(
  commands: SimpleCommand[],
  lookup: Lookup,
  environment: ShellEnvironment,
  out: ExpandedLine,
  seenLines: Set<string>,
  depth: number,
): void {
  const nested: string[] = [];
  for (const command of commands) {
    const expand = (parts: readonly WordPart[], tilde: 'start' | 'assignment', raw: string): ExpandedWord => {
      const why: string[] = [];
      const values = expandParts(parts, lookup, tilde, why).map((value) => value.split(UNKNOWN).join('*'));
      const word = { raw, values, unresolvable: why[0] ?? null };
      if (out.words.length >= LIMITS.words) {
        out.unresolvable.push('a line too long to read through');
        return word;
      }
      out.words.push(word);
      if (word.unresolvable) out.unresolvable.push(word.unresolvable);
      for (const value of values) if (LINE_LIKE.test(value) && !seenLines.has(value)) nested.push(value);
      return word;
    };
    for (const assignment of command.assignments)
      expand(assignmentParts(assignment).value, 'assignment', assignment.raw);
    const words = command.words.map((word) => expand(word.parts, 'start', word.raw));
    for (const redirect of command.redirects)
      if (redirect.target) expand(redirect.target.parts, 'start', redirect.target.raw);
    out.commands.push(words);
    const name = words[0]?.values ?? [];
    if (name.includes('cd') || name.includes('pushd')) {
      const target = words.slice(1).find((word) => !word.values.every((value) => value.startsWith('-')));
      out.directories.push(
        target ?? { raw: '~', values: [lookup('HOME').values[0] ?? '*'], unresolvable: null },
      );
    }
  }
  if (depth + 1 >= LIMITS.depth) {
    if (nested.length > 0) out.unresolvable.push('commands nested too deeply to read through');
    return;
  }
  for (const line of nested) {
    seenLines.add(line);
    const inner: SimpleCommand[] = [];
    collect(line, depth + 1, inner, out.unresolvable);
    expandCommands(
      inner,
      gatherVariables(inner, environment, lookup),
      environment,
      out,
      seenLines,
      depth + 1,
    );
  }
}

// The simple commands of a line and of everything nested in it: substitutions, here-documents, `${x#…}` words.
function collect(line: string, depth: number, commands: SimpleCommand[], unresolvable: string[]): void {
  if (depth >= LIMITS.depth) {
    unresolvable.push('commands nested too deeply to read through');
    return;
  }
  const { commands: found } = splitCommands(lex(line).tokens);
  for (const command of found) {
    if (commands.length >= LIMITS.commands) {
      unresolvable.push('a line too long to read through');
      return;
    }
    commands.push(command);
    const words = [...command.assignments, ...command.words];
    for (const redirect of command.redirects) {
      if (redirect.target) words.push(redirect.target);
      if (redirect.heredoc) collect(redirect.heredoc.body, depth + 1, commands, unresolvable);
    }
    for (const word of words) walk(word.parts, depth, commands, unresolvable);
  }
}

function walk(
  parts: readonly WordPart[],
  depth: number,
  commands: SimpleCommand[],
  unresolvable: string[],
): void {
  for (const part of parts) {
    if (part.kind === 'param' && part.word) walk(part.word, depth, commands, unresolvable);
    if (part.kind !== 'opaque') continue;
    if (part.inner !== null) collect(part.inner, depth + 1, commands, unresolvable);
    else if (part.what === 'parameter') collect(part.raw.slice(2, -1), depth + 1, commands, unresolvable);
    else if (part.what === 'locale') collect(part.raw.slice(1), depth + 1, commands, unresolvable);
  }
}
