// The second mode of the shell-line reader (docs/security.md): every word of every simple command of a line,
// nested ones included (`$(…)`, here-documents, `sh -c '…'`, `eval`), expanded as the shell would with a known
// environment, for the sensitive-target check. What cannot be worked out is kept as `*` and reported.
import type { SimpleCommand } from './commands';
import { assignmentParts, splitCommands } from './commands';
import type { ExpandBudget, Lookup } from './expand-word';
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
  /**
   * Why the line was not read through (nesting, a bound below), or null. Words past that point are missing, so a
   * caller that must see every word treats the line as unchecked.
   */
  truncated: string | null;
}

/**
 * Bounds on the work one line may cause; past them the rest is reported (`truncated`). A 32 KiB line of plain
 * words stays well inside them: `chars` counts values built (and the characters compared to drop repeats).
 */
export const EXPAND_LIMITS = { depth: 4, commands: 4096, words: 32_768, chars: 16 * 1024 * 1024 };

// What one expansion shares: the budget, what could not be worked out, and why it stopped short.
interface State {
  budget: ExpandBudget;
  unresolvable: string[];
  truncated: string | null;
}

function stop(state: State, why: string): void {
  state.unresolvable.push(why);
  state.truncated ??= why;
}

// Blanks or shell syntax in a value: it may be a command line of its own (`sh -c '…'`, `eval`, `ssh host '…'`).
const LINE_LIKE = /[\s;&|<>()$`'"\\]/;

/** Expands every word of `line`; see ExpandedLine. */
export function expandLine(line: string, environment: ShellEnvironment): ExpandedLine {
  const state: State = { budget: { chars: EXPAND_LIMITS.chars }, unresolvable: [], truncated: null };
  const out: ExpandedLine = { words: [], commands: [], directories: [], unresolvable: [], truncated: null };
  const commands: SimpleCommand[] = [];
  collect(line, 0, commands, state);
  const variables = gatherVariables(commands, environment, null, state.budget);
  const seenLines = new Set<string>([line]);
  expandCommands(commands, variables, environment, out, seenLines, 0, state);
  if (state.budget.chars < 0) stop(state, 'a line that expands to too much to read through');
  out.unresolvable = [...new Set(state.unresolvable)];
  out.truncated = state.truncated;
  return out;
}

function expandCommands(
  commands: SimpleCommand[],
  lookup: Lookup,
  environment: ShellEnvironment,
  out: ExpandedLine,
  seenLines: Set<string>,
  depth: number,
  state: State,
): void {
  const nested: string[] = [];
  for (const command of commands) {
    if (out.words.length >= EXPAND_LIMITS.words) {
      stop(state, 'a line too long to read through');
      return;
    }
    const expand = (parts: readonly WordPart[], tilde: 'start' | 'assignment', raw: string): ExpandedWord => {
      if (out.words.length >= EXPAND_LIMITS.words) {
        stop(state, 'a line too long to read through');
        return { raw, values: ['*'], unresolvable: null };
      }
      const why: string[] = [];
      const values = expandParts(parts, lookup, tilde, why, state.budget).map((value) => {
        // Every value is read again (nested lines, paths): its length is paid for too.
        state.budget.chars -= value.length;
        return value.includes(UNKNOWN) ? value.split(UNKNOWN).join('*') : value;
      });
      const word = { raw, values, unresolvable: why[0] ?? null };
      out.words.push(word);
      if (word.unresolvable) state.unresolvable.push(word.unresolvable);
      for (const value of values) if (LINE_LIKE.test(value) && !seenLines.has(value)) nested.push(value);
      return word;
    };
    for (const assignment of command.assignments)
      expand(assignmentParts(assignment).value, 'assignment', assignment.raw);
    const room = Math.max(0, EXPAND_LIMITS.words - out.words.length);
    if (command.words.length > room) stop(state, 'a line too long to read through');
    const words = command.words.slice(0, room).map((word) => expand(word.parts, 'start', word.raw));
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
  if (depth + 1 >= EXPAND_LIMITS.depth) {
    if (nested.length > 0) stop(state, 'commands nested too deeply to read through');
    return;
  }
  for (const line of nested) {
    if (state.truncated) return;
    seenLines.add(line);
    const inner: SimpleCommand[] = [];
    collect(line, depth + 1, inner, state);
    expandCommands(
      inner,
      gatherVariables(inner, environment, lookup, state.budget),
      environment,
      out,
      seenLines,
      depth + 1,
      state,
    );
  }
}

// The simple commands of a line and of everything nested in it: substitutions, here-documents, `${x#…}` words.
// The recursion goes one level of nesting down per call: EXPAND_LIMITS.depth and the lexer's bound keep it shallow.
function collect(line: string, depth: number, commands: SimpleCommand[], state: State): void {
  if (depth >= EXPAND_LIMITS.depth) {
    stop(state, 'commands nested too deeply to read through');
    return;
  }
  const lexed = lex(line);
  if (lexed.stopped) stop(state, lexed.stopped);
  const { commands: found } = splitCommands(lexed.tokens);
  for (const command of found) {
    if (commands.length >= EXPAND_LIMITS.commands) {
      stop(state, 'a line too long to read through');
      return;
    }
    commands.push(command);
    const words = [...command.assignments, ...command.words];
    for (const redirect of command.redirects) {
      if (redirect.target) words.push(redirect.target);
      if (redirect.heredoc) collect(redirect.heredoc.body, depth + 1, commands, state);
    }
    for (const word of words) walk(word.parts, depth, commands, state);
  }
}

function walk(parts: readonly WordPart[], depth: number, commands: SimpleCommand[], state: State): void {
  for (const part of parts) {
    if (part.kind === 'param' && part.word) walk(part.word, depth, commands, state);
    if (part.kind !== 'opaque') continue;
    if (part.inner !== null) collect(part.inner, depth + 1, commands, state);
    else if (part.what === 'parameter') collect(part.raw.slice(2, -1), depth + 1, commands, state);
    else if (part.what === 'locale') collect(part.raw.slice(1), depth + 1, commands, state);
  }
}
