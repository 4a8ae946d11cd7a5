// The shapes the shell-line reader produces (docs/security.md): words made of parts that keep quoting and
// expansions visible, operators, and here-documents.

/** How a `${name<op>word}` expansion treats `word`. */
export type ParamOperator = '-' | ':-' | '=' | ':=' | '+' | ':+' | '?' | ':?';

/** Expansions the reader keeps whole without working them out: their value is only known when the line runs. */
export type OpaqueKind = 'command' | 'backquote' | 'arithmetic' | 'ansi-c' | 'locale' | 'parameter';

/** One piece of a shell word. `quoted`: inside quotes or escaped, so no splitting, globbing or tilde applies. */
export type WordPart =
  | { kind: 'text'; text: string; quoted: boolean }
  | {
      kind: 'param';
      name: string;
      op: ParamOperator | null;
      word: WordPart[] | null;
      quoted: boolean;
      raw: string;
    }
  | { kind: 'opaque'; what: OpaqueKind; raw: string; inner: string | null; quoted: boolean };

/** A word as written (`raw`) and as parts. */
export interface Word {
  parts: WordPart[];
  raw: string;
}

/** A here-document's text, and whether its delimiter was quoted (then the text is not expanded). */
export interface HereDocument {
  body: string;
  quoted: boolean;
}

/** A word, or an operator (`;`, `&&`, `|`, `>`, `<<`, `(`, a newline…); a `<<` carries its here-document. */
export type Token = { kind: 'word'; word: Word } | { kind: 'operator'; op: string; heredoc?: HereDocument };

/** What the lexer read: the tokens and what it could not read (unterminated quotes…). */
export interface Lexed {
  tokens: Token[];
  problems: string[];
  /** Why the lexer stopped before the end of the line (nesting past its bound), or null: the rest is unread. */
  stopped: string | null;
}

/** The text of parts that are all text (quote removal); other parts count as their raw text. */
export function unquotedText(parts: readonly WordPart[]): string {
  return parts.map((part) => (part.kind === 'text' ? part.text : part.raw)).join('');
}

/** Shortens a snippet for a message. */
export function clip(text: string, max = 40): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
