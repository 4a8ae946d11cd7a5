// What a `$` starts in a shell word (docs/security.md): `$name`, `${name<op>word}`, `$(…)`, `$((…))`, bash's `$[…]`,
// `$'…'` and `$"…"`, read exactly far enough that the rest of the line is read as the shell reads it.
import type { Lexer } from './lex';
import type { ParamOperator, WordPart } from './words';
import { clip } from './words';

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;
const SPECIAL = new Set(['@', '*', '#', '?', '-', '$', '!']);
const PARAM_OPERATORS: readonly ParamOperator[] = [':-', ':=', ':?', ':+', '-', '=', '?', '+'];

/** Reads what a `$` starts (at `lexer.pos`): a parameter, a substitution, an arithmetic or quoted form. */
export function readDollar(
  lexer: Lexer,
  parts: WordPart[],
  text: (value: string, quoted: boolean) => void,
  quoted: boolean,
): void {
  const src = lexer.src;
  const start = lexer.pos;
  // `\<newline>` is gone before the shell reads `$`: `$\<newline>HOME` is `$HOME`.
  const at = skipContinuations(src, lexer.pos + 1);
  const next = src[at];
  if (next === '{') {
    if (!lexer.enter()) return;
    lexer.pos = at;
    parts.push(readBraceParam(lexer, quoted, start));
    lexer.leave();
  } else if (next === '(') {
    if (!lexer.enter()) return;
    lexer.pos = at + 1;
    const innerStart = lexer.pos;
    lexer.tokens(true);
    const inner = src.slice(innerStart, lexer.pos);
    if (src[lexer.pos] === ')') lexer.pos++;
    const arithmetic = inner.startsWith('(') && inner.endsWith(')');
    const what = arithmetic ? 'arithmetic' : 'command';
    parts.push({ kind: 'opaque', what, raw: src.slice(start, lexer.pos), inner, quoted });
    lexer.leave();
  } else if (next === '[') {
    // bash's old arithmetic `$[…]`, expanded inside double quotes too (dash leaves it as text).
    let depth = 0;
    let end = at;
    for (; end < src.length; end++) {
      if (src[end] === '[') depth++;
      else if (src[end] === ']' && --depth === 0) break;
    }
    lexer.pos = Math.min(end + 1, src.length);
    const inner = src.slice(at + 1, end);
    parts.push({ kind: 'opaque', what: 'arithmetic', raw: src.slice(start, lexer.pos), inner, quoted });
  } else if (next === "'" && !quoted) {
    // bash's $'…' (and recent dash's): backslash escapes, including \', end at the first plain quote.
    let end = at + 1;
    while (end < src.length && src[end] !== "'") end += src[end] === '\\' ? 2 : 1;
    if (end >= src.length) lexer.problems.push("an unterminated $'");
    lexer.pos = Math.min(end + 1, src.length);
    parts.push({ kind: 'opaque', what: 'ansi-c', raw: src.slice(start, lexer.pos), inner: null, quoted });
  } else if (next === '"' && !quoted) {
    lexer.pos = at;
    lexer.readDouble([], () => undefined);
    parts.push({ kind: 'opaque', what: 'locale', raw: src.slice(start, lexer.pos), inner: null, quoted });
  } else if (next !== undefined && NAME_START.test(next)) {
    let name = '';
    let end = at;
    while (end < src.length && NAME_CHAR.test(src[end] as string)) {
      name += src[end];
      end = skipContinuations(src, end + 1);
    }
    lexer.pos = end;
    parts.push({ kind: 'param', name, op: null, word: null, quoted, raw: src.slice(start, end) });
  } else if (next !== undefined && (/[0-9]/.test(next) || SPECIAL.has(next))) {
    lexer.pos = at + 1;
    parts.push({
      kind: 'param',
      name: next,
      op: null,
      word: null,
      quoted,
      raw: src.slice(start, lexer.pos),
    });
  } else {
    text('$', quoted);
    lexer.pos++;
  }
}

// The first position from `at` that is not a `\<newline>` line continuation.
function skipContinuations(src: string, at: number): number {
  let i = at;
  while (src[i] === '\\' && src[i + 1] === '\n') i += 2;
  return i;
}

function readBraceParam(lexer: Lexer, quoted: boolean, start: number): WordPart {
  const src = lexer.src;
  lexer.pos++;
  const opaque = (): WordPart => {
    lexer.readWord(quoted ? 'dbrace' : 'brace');
    close(lexer, start);
    return { kind: 'opaque', what: 'parameter', raw: src.slice(start, lexer.pos), inner: null, quoted };
  };
  const first = src[lexer.pos];
  // `${#}` is the argument count; `${#x}` a length, `${!x}` bash's indirection: values unknown here.
  if (first === '#' && src[lexer.pos + 1] === '}') {
    lexer.pos += 2;
    return { kind: 'param', name: '#', op: null, word: null, quoted, raw: '${#}' };
  }
  if (first === '#' || first === '!') return opaque();
  let name = '';
  if (first !== undefined && NAME_START.test(first)) {
    let end = lexer.pos + 1;
    while (end < src.length && NAME_CHAR.test(src[end] as string)) end++;
    name = src.slice(lexer.pos, end);
  } else if (first !== undefined && /[0-9]/.test(first)) {
    let end = lexer.pos + 1;
    while (end < src.length && /[0-9]/.test(src[end] as string)) end++;
    name = src.slice(lexer.pos, end);
  } else if (first !== undefined && (SPECIAL.has(first) || first === '0')) name = first;
  if (name === '') {
    lexer.problems.push(`\`${clip(src.slice(start, start + 12))}\` (a bad substitution)`);
    return opaque();
  }
  lexer.pos += name.length;
  if (src[lexer.pos] === '}') {
    lexer.pos++;
    return { kind: 'param', name, op: null, word: null, quoted, raw: src.slice(start, lexer.pos) };
  }
  const op = PARAM_OPERATORS.find((candidate) => src.startsWith(candidate, lexer.pos));
  if (!op) return opaque();
  lexer.pos += op.length;
  const word = lexer.readWord(quoted ? 'dbrace' : 'brace');
  close(lexer, start);
  return { kind: 'param', name, op, word: word.parts, quoted, raw: src.slice(start, lexer.pos) };
}

function close(lexer: Lexer, start: number): void {
  if (lexer.src[lexer.pos] === '}') lexer.pos++;
  else lexer.problems.push(`\`${clip(lexer.src.slice(start, start + 12))}\` (an unterminated \${)`);
}
