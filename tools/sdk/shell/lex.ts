// The lexer of the shell-line reader (docs/security.md): splits a /bin/sh command line into words and operators
// exactly as dash and bash do, keeping quoting and every expansion visible so that nothing is guessed.
//
// It is written by hand rather than taken from a library because it is the product's security core: the confirm
// gate matches rules against what it reads, so every difference from the real shell is a way around the gate. A
// hand-written reader can be checked line by line against POSIX §2.3 (token recognition) and §2.6 (expansions)
// and is tested against the real /bin/sh; what it cannot read exactly it reports instead of approximating.

import { readDollar } from './dollar';
import type { HereDocument, Lexed, Token, Word, WordPart } from './words';
import { clip, unquotedText } from './words';

export type { HereDocument, Lexed, OpaqueKind, ParamOperator, Token, Word, WordPart } from './words';
export { clip, unquotedText } from './words';

// Longest first, so `&&` wins over `&` and `<<-` over `<<`. bash's own operators are included: whatever
// /bin/sh is, a line with them is not a simple command.
const OPERATORS = ';;& <<< <<- &>> ;; ;& && &> || |& << <& <> >> >& >| & | ; < > ( )'.split(' ');

const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);

// The characters an operator can begin with: only at these is the operator list searched.
const OPERATOR_START = new Set(OPERATORS.map((op) => op[0] as string));

// Characters that end a run of plain word characters, in any mode: quoting, expansions and escapes.
const WORD_SPECIAL = new Set(['\\', "'", '"', '$', '`']);

/**
 * How deeply `$(…)` and `${…}` may nest before the reader stops (the rest of the line is then unread and reported).
 * Every recursion of the reader, and of the expansion that walks its output, goes through one of the two, so this
 * also bounds their depth: no input can exhaust the stack.
 */
export const MAX_NESTING = 64;

/** Reads a whole command line into tokens. */
export function lex(line: string): Lexed {
  const lexer = new Lexer(line);
  const tokens = lexer.tokens(false);
  if (line.includes('\0')) lexer.problems.push('a NUL character (the shell would cut the line there)');
  return { tokens, problems: lexer.problems, stopped: lexer.stopped };
}

/** Word-reading modes: a top-level word; the word of an unquoted `${x:-word}`; the same inside double quotes. */
export type Mode = 'top' | 'brace' | 'dbrace';

/** The lexer's state and readers, shared with the `$` readers in dollar.ts. */
export class Lexer {
  pos = 0;
  readonly problems: string[] = [];
  /** Why reading stopped before the end (see MAX_NESTING), or null. */
  stopped: string | null = null;
  private depth = 0;

  constructor(readonly src: string) {}

  /** Enters one `$(…)` or `${…}`; past MAX_NESTING it reports why, leaves the rest unread and returns false. */
  enter(): boolean {
    if (this.depth < MAX_NESTING) {
      this.depth++;
      return true;
    }
    if (!this.stopped) {
      this.stopped = `expansions nested more than ${MAX_NESTING} deep (the rest of the line is not read)`;
      this.problems.push(this.stopped);
    }
    this.pos = this.src.length;
    return false;
  }

  /** Leaves what enter() entered. */
  leave(): void {
    this.depth--;
  }

  /** Tokens up to the end, or (inside `$(`) up to the `)` that closes it, which is left unread. */
  tokens(untilParen: boolean): Token[] {
    const tokens: Token[] = [];
    const pending: Array<{ token: { heredoc?: HereDocument }; strip: boolean; delimiter: Word | null }> = [];
    let expectDelimiter: (typeof pending)[number] | null = null;
    let depth = 0;
    const src = this.src;
    while (this.pos < src.length) {
      const c = src[this.pos] as string;
      if (c === ' ' || c === '\t') {
        this.pos++;
        continue;
      }
      if (c === '\\' && src[this.pos + 1] === '\n') {
        this.pos += 2;
        continue;
      }
      if (c === '#') {
        const end = src.indexOf('\n', this.pos);
        this.problems.push(`\`${clip(src.slice(this.pos, end === -1 ? undefined : end))}\` (a comment)`);
        this.pos = end === -1 ? src.length : end;
        continue;
      }
      if (c === '\n') {
        tokens.push({ kind: 'operator', op: '\n' });
        this.pos++;
        for (const doc of pending.splice(0)) this.readHereDocument(doc);
        continue;
      }
      const op = OPERATOR_START.has(c)
        ? OPERATORS.find((candidate) => src.startsWith(candidate, this.pos))
        : undefined;
      if (op) {
        if (untilParen && op === '(') depth++;
        if (untilParen && op === ')') {
          if (depth === 0) break;
          depth--;
        }
        this.pos += op.length;
        const token: Token = { kind: 'operator', op };
        tokens.push(token);
        if (op === '<<' || op === '<<-') {
          expectDelimiter = { token, strip: op === '<<-', delimiter: null };
          pending.push(expectDelimiter);
        }
        continue;
      }
      const word = this.readWord('top');
      if (expectDelimiter) {
        expectDelimiter.delimiter = word;
        expectDelimiter = null;
      }
      // A number right before a redirection names a file descriptor (`2>&1`): part of the operator.
      if (/^[0-9]+$/.test(word.raw) && (src[this.pos] === '<' || src[this.pos] === '>')) {
        tokens.push({ kind: 'operator', op: word.raw });
        continue;
      }
      tokens.push({ kind: 'word', word });
    }
    if (untilParen && src[this.pos] !== ')') this.problems.push('an unterminated `$(` or `(`');
    for (const doc of pending) this.readHereDocument(doc);
    return tokens;
  }

  // The lines after the operator's line, up to the delimiter line; to the end if it never comes (as the shells do).
  private readHereDocument(doc: {
    token: { heredoc?: HereDocument };
    strip: boolean;
    delimiter: Word | null;
  }) {
    const delimiter = doc.delimiter ? unquotedText(doc.delimiter.parts) : '';
    const quoted = doc.delimiter
      ? doc.delimiter.parts.some((part) => part.kind !== 'text' || part.quoted)
      : false;
    const lines: string[] = [];
    while (this.pos < this.src.length) {
      const end = this.src.indexOf('\n', this.pos);
      const line = this.src.slice(this.pos, end === -1 ? undefined : end);
      this.pos = end === -1 ? this.src.length : end + 1;
      const compared = doc.strip ? line.replace(/^\t+/, '') : line;
      if (compared === delimiter) break;
      lines.push(compared);
    }
    doc.token.heredoc = { body: lines.join('\n'), quoted };
  }

  /** One word from the current position; in brace modes it ends before the closing `}`. */
  readWord(mode: Mode): Word {
    const src = this.src;
    const start = this.pos;
    const parts: WordPart[] = [];
    const text = (value: string, quoted: boolean) => {
      const last = parts[parts.length - 1];
      if (last?.kind === 'text' && last.quoted === quoted) last.text += value;
      else parts.push({ kind: 'text', text: value, quoted });
    };
    const inDouble = mode === 'dbrace';
    while (this.pos < src.length) {
      const c = src[this.pos] as string;
      if (mode === 'top' && WORD_END.has(c)) break;
      if (mode !== 'top' && c === '}') break;
      if (c === '\\') {
        const next = src[this.pos + 1];
        if (next === '\n') this.pos += 2;
        else if (next === undefined) {
          text('\\', inDouble);
          this.pos++;
        } else if (inDouble && !'$`"\\}'.includes(next)) {
          text('\\', true);
          this.pos++;
        } else {
          text(next, true);
          this.pos += 2;
        }
      } else if (c === "'" && !inDouble) {
        const end = src.indexOf("'", this.pos + 1);
        if (end === -1) this.problems.push('an unterminated single quote');
        text(src.slice(this.pos + 1, end === -1 ? undefined : end), true);
        this.pos = end === -1 ? src.length : end + 1;
      } else if (c === '"') {
        this.readDouble(parts, text);
      } else if (c === '$') {
        this.readDollar(parts, text, inDouble);
      } else if (c === '`') {
        parts.push(this.readBackquote(inDouble));
      } else {
        // A run of plain characters is taken whole, as the shell would take them one by one.
        let end = this.pos + 1;
        while (end < src.length && !this.endsPlainRun(src[end] as string, mode)) end++;
        text(src.slice(this.pos, end), inDouble);
        this.pos = end;
      }
    }
    return { parts, raw: src.slice(start, this.pos) };
  }

  // Whether `c` ends a run of plain characters in a word read in `mode` (see readWord's loop).
  private endsPlainRun(c: string, mode: Mode): boolean {
    if (WORD_SPECIAL.has(c)) return true;
    return mode === 'top' ? WORD_END.has(c) : c === '}';
  }

  readDouble(parts: WordPart[], text: (value: string, quoted: boolean) => void): void {
    const src = this.src;
    this.pos++;
    text('', true);
    while (this.pos < src.length && src[this.pos] !== '"') {
      const c = src[this.pos] as string;
      if (c === '\\') {
        const next = src[this.pos + 1];
        if (next === '\n') this.pos += 2;
        else if (next !== undefined && '$`"\\'.includes(next)) {
          text(next, true);
          this.pos += 2;
        } else {
          text('\\', true);
          this.pos++;
        }
      } else if (c === '$') this.readDollar(parts, text, true);
      else if (c === '`') parts.push(this.readBackquote(true));
      else {
        text(c, true);
        this.pos++;
      }
    }
    if (this.pos >= src.length) this.problems.push('an unterminated double quote');
    else this.pos++;
  }

  private readDollar(parts: WordPart[], text: (value: string, quoted: boolean) => void, quoted: boolean) {
    readDollar(this, parts, text, quoted);
  }

  readBackquote(quoted: boolean): WordPart {
    const src = this.src;
    const start = this.pos;
    this.pos++;
    let inner = '';
    while (this.pos < src.length && src[this.pos] !== '`') {
      const c = src[this.pos] as string;
      const next = src[this.pos + 1];
      if (c === '\\' && next !== undefined && '$`\\'.includes(next)) {
        inner += next;
        this.pos += 2;
      } else {
        inner += c;
        this.pos++;
      }
    }
    if (this.pos >= src.length) this.problems.push('an unterminated backquote');
    else this.pos++;
    return { kind: 'opaque', what: 'backquote', raw: src.slice(start, this.pos), inner, quoted };
  }
}
