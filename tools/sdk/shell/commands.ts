// Simple commands of a lexed shell line (docs/security.md): where each begins and ends, its leading
// assignments, its words, its redirections and the shell keywords it starts with.
import type { HereDocument, Token, Word, WordPart } from './lex';

/** A redirection: the operator, the word it applies to, and a here-document's text. */
export interface Redirect {
  op: string;
  target: Word | null;
  heredoc: HereDocument | null;
}

/** One simple command: `NAME=value` prefixes, then the command's words, and its redirections. */
export interface SimpleCommand {
  assignments: Word[];
  words: Word[];
  redirects: Redirect[];
  /** Reserved words met in command position (`if`, `for`, `{`, `!`…): the line is shell code, not one command. */
  keywords: string[];
}

/** The simple commands of a line and the operators between them, in order. */
export interface CommandList {
  commands: SimpleCommand[];
  /** Control and redirection operators as written (a newline as '\n'). */
  operators: string[];
}

const CONTROL = new Set([';', '&', '&&', '||', '|', '|&', ';;', ';&', ';;&', '(', ')', '\n']);

// POSIX reserved words, and bash's (when /bin/sh is bash they are keywords too).
const RESERVED = new Set([
  '!',
  '{',
  '}',
  'case',
  'do',
  'done',
  'elif',
  'else',
  'esac',
  'fi',
  'for',
  'if',
  'in',
  'then',
  'until',
  'while',
  '[[',
  ']]',
  'function',
  'select',
  'time',
  'coproc',
]);

/** Splits tokens into simple commands at control operators; a redirection takes the word after it. */
export function splitCommands(tokens: readonly Token[]): CommandList {
  const commands: SimpleCommand[] = [];
  const operators: string[] = [];
  let current = emptyCommand();
  const flush = () => {
    if (
      current.words.length + current.assignments.length + current.redirects.length + current.keywords.length >
      0
    )
      commands.push(current);
    current = emptyCommand();
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.kind === 'operator') {
      if (/^[0-9]+$/.test(token.op)) continue;
      operators.push(token.op);
      if (CONTROL.has(token.op)) {
        flush();
        continue;
      }
      const next = tokens[i + 1];
      const target = next?.kind === 'word' ? next.word : null;
      if (target) i++;
      current.redirects.push({ op: token.op, target, heredoc: token.heredoc ?? null });
      continue;
    }
    const { word } = token;
    if (current.words.length === 0) {
      if (current.assignments.length === 0 && isReservedWord(word)) {
        current.keywords.push(word.raw);
        continue;
      }
      if (isAssignment(word)) {
        current.assignments.push(word);
        continue;
      }
    }
    current.words.push(word);
  }
  flush();
  return { commands, operators };
}

/** `NAME=…` with the name and `=` unquoted: the shell assigns it instead of running it. */
export function isAssignment(word: Word): boolean {
  const first = word.parts[0];
  return first?.kind === 'text' && !first.quoted && /^[A-Za-z_][A-Za-z0-9_]*=/.test(first.text);
}

/** The name and value parts of an assignment word. */
export function assignmentParts(word: Word): { name: string; value: WordPart[] } {
  const [first, ...rest] = word.parts;
  const text = first?.kind === 'text' ? first.text : '';
  const at = text.indexOf('=');
  const head: WordPart[] =
    at + 1 < text.length ? [{ kind: 'text', text: text.slice(at + 1), quoted: false }] : [];
  return { name: text.slice(0, at), value: [...head, ...rest] };
}

function isReservedWord(word: Word): boolean {
  const [only, ...rest] = word.parts;
  return rest.length === 0 && only?.kind === 'text' && !only.quoted && RESERVED.has(only.text);
}

function emptyCommand(): SimpleCommand {
  return { assignments: [], words: [], redirects: [], keywords: [] };
}
