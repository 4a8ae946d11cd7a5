// What each variable may hold anywhere in a line (docs/security.md). Order and control flow are not followed:
// a loop can run an assignment before a use that comes earlier in the text, so every value the line may give a
// variable counts everywhere, together with its starting value. Reading `x` then errs towards more values.
import type { SimpleCommand } from './commands';
import { assignmentParts, isAssignment } from './commands';
import type { ExpandBudget, Lookup, Possible } from './expand-word';
import { expandParts, UNBOUNDED, UNKNOWN } from './expand-word';
import type { ShellEnvironment } from './expand';
import type { Word, WordPart } from './lex';
import { unquotedText } from './lex';

// Variables dash or bash set themselves, to values not known here.
const SHELL_SET = new Set([
  'IFS',
  'PS1',
  'PS2',
  'PS4',
  'PPID',
  'OPTIND',
  'OPTARG',
  'OPTERR',
  'LINENO',
  'RANDOM',
  'SRANDOM',
  'SECONDS',
  'HOSTNAME',
  'HOSTTYPE',
  'MACHTYPE',
  'OSTYPE',
  'SHLVL',
  'UID',
  'EUID',
  'GROUPS',
  'PIPESTATUS',
  'DIRSTACK',
  'FUNCNAME',
  'EPOCHREALTIME',
  'EPOCHSECONDS',
  'HISTCMD',
  'COLUMNS',
  'LINES',
  'MAILCHECK',
  'SHELLOPTS',
  'OLDPWD',
  '_',
]);

// Commands that set the variables they name to values only known when they run.
const READERS = new Set([
  'read',
  'getopts',
  'mapfile',
  'readarray',
  'printf',
  'let',
  'local',
  'declare',
  'typeset',
]);
// Commands after which any variable may hold anything.
const ANYTHING = new Set(['eval', '.', 'source']);
const DIRECTORY_CHANGERS = new Set(['cd', 'pushd', 'popd']);
const DECLARERS = new Set(['export', 'readonly', 'local', 'declare', 'typeset']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_PER_VARIABLE = 16;
const ROUNDS = 4;

/** A lookup over the line's variables: starting values, plus every value the line may assign. */
export function gatherVariables(
  commands: readonly SimpleCommand[],
  environment: ShellEnvironment,
  outer: Lookup | null = null,
  budget: ExpandBudget = UNBOUNDED,
): Lookup {
  const unknownNames = new Set(environment.unknown ?? []);
  const start = (name: string): Possible => {
    if (outer) return outer(name);
    if (
      /^[0-9@*#?$!-]$/.test(name) ||
      /^[0-9]+$/.test(name) ||
      SHELL_SET.has(name) ||
      name.startsWith('BASH')
    )
      return { values: [], unset: false, unknown: true };
    if (unknownNames.has(name)) return { values: [], unset: false, unknown: true };
    const value = environment.variables[name];
    return value === undefined
      ? { values: [], unset: true, unknown: false }
      : { values: [value], unset: false, unknown: false };
  };
  const assigned = new Map<string, Possible>();
  let everything = false;
  const lookup: Lookup = (name) => {
    const base = start(name);
    const more = assigned.get(name);
    const merged: Possible = more
      ? {
          values: [...new Set([...base.values, ...more.values])],
          unset: base.unset || more.unset,
          unknown: base.unknown || more.unknown,
        }
      : base;
    return everything ? { ...merged, unknown: true } : merged;
  };
  // Counts what the line added, so that a round that added nothing ends the search.
  let changes = 0;
  const add = (name: string, values: string[] | 'unknown' | 'unset') => {
    const entry = assigned.get(name) ?? { values: [], unset: false, unknown: false };
    if (!assigned.has(name)) changes++;
    if (values === 'unknown' && !entry.unknown) {
      entry.unknown = true;
      changes++;
    } else if (values === 'unset' && !entry.unset) {
      entry.unset = true;
      changes++;
    } else if (Array.isArray(values))
      for (const value of values) {
        if (entry.values.includes(value)) continue;
        // A value with an unknown piece, or one more than a variable keeps: the variable may hold anything.
        if (value.includes(UNKNOWN) || entry.values.length >= MAX_PER_VARIABLE) {
          if (!entry.unknown) changes++;
          entry.unknown = true;
        } else {
          entry.values.push(value);
          changes++;
        }
      }
    assigned.set(name, entry);
  };
  // Assignments may use variables other assignments set: repeat until nothing new turns up.
  for (let round = 0; round < ROUNDS; round++) {
    const before = changes;
    const wasEverything: boolean = everything;
    for (const command of commands) everything = visit(command, lookup, add, budget) || everything;
    if (changes === before && everything === wasEverything) return lookup;
  }
  everything = true;
  return lookup;
}

type Add = (name: string, values: string[] | 'unknown' | 'unset') => void;

// Records what one command may assign; true when after it any variable may hold anything.
function visit(command: SimpleCommand, lookup: Lookup, add: Add, budget: ExpandBudget): boolean {
  const expand = (parts: readonly WordPart[]) => expandParts(parts, lookup, 'assignment', [], budget);
  for (const word of [...command.assignments, ...command.words]) defaults(word.parts, lookup, add, budget);
  for (const redirect of command.redirects)
    if (redirect.target) defaults(redirect.target.parts, lookup, add, budget);
  for (const word of command.assignments) {
    const { name, value } = assignmentParts(word);
    add(name, expand(value));
  }
  const names = command.words.map((word) => plain(word));
  const head = names[0] ?? '';
  if (command.keywords.includes('for') || command.keywords.includes('select')) {
    if (NAME.test(head)) {
      if (names[1] === 'in')
        for (const word of command.words.slice(2))
          add(head, expandParts(word.parts, lookup, 'start', [], budget));
      else add(head, 'unknown');
    }
    return false;
  }
  if (DIRECTORY_CHANGERS.has(head)) add('PWD', 'unknown');
  if (ANYTHING.has(head) || command.words.some(hasArithmetic)) return true;
  if (head === 'unset') for (const name of names.slice(1)) if (NAME.test(name)) add(name, 'unset');
  if (DECLARERS.has(head))
    for (const word of command.words.slice(1))
      if (isAssignment(word)) {
        const { name, value } = assignmentParts(word);
        add(name, expand(value));
      }
  if (READERS.has(head)) for (const name of names.slice(1)) if (NAME.test(name)) add(name, 'unknown');
  return false;
}

// `${x:=y}` and `${x=y}` assign as they expand. (The recursion follows `${…}` nesting, which the lexer bounds.)
function defaults(parts: readonly WordPart[], lookup: Lookup, add: Add, budget: ExpandBudget): void {
  for (const part of parts) {
    if (part.kind !== 'param' || !part.word) continue;
    defaults(part.word, lookup, add, budget);
    if (part.op === '=' || part.op === ':=')
      add(part.name, expandParts(part.word, lookup, part.quoted ? 'none' : 'start', [], budget));
  }
}

// `$((x = 1))` assigns too, and nobody reads arithmetic here.
function hasArithmetic(word: Word): boolean {
  return word.parts.some((part) => part.kind === 'opaque' && part.what === 'arithmetic');
}

function plain(word: Word): string {
  return word.parts.every((part) => part.kind === 'text') ? unquotedText(word.parts) : '';
}
