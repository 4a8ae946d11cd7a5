// Rule globs (docs/security.md, "Decisions and rules"): `*` matches anything but `/`, `**` anything, `?` one character, `\` escapes. Matched by
// walking the glob's positions along the text once (no backtracking), so a long text a model wrote costs time in
// proportion to its length, whatever the pattern.

/** One element of a compiled rule glob. */
type Token = { kind: 'char'; char: string } | { kind: 'any' } | { kind: 'star' } | { kind: 'globstar' };

/** A compiled rule glob. */
export interface CompiledGlob {
  /** Whether `text` matches the glob as a whole. */
  test(text: string): boolean;
}

// What regular expressions count as white space (`\s`): the optional tail of `git log **` starts with one.
const SPACE = /\s/;

const cache = new Map<string, CompiledGlob>();

/** Compiles a rule glob. A trailing ` **` may also match nothing, so `git log **` covers `git log`. */
export function compileGlob(glob: string): CompiledGlob {
  const cached = cache.get(glob);
  if (cached) return cached;
  let body = glob;
  // "git log **" should cover the bare "git log" too: the space and the rest are optional together.
  const optionalTail = body.endsWith(' **') && !body.endsWith('\\ **');
  if (optionalTail) body = body.slice(0, -3);
  const tokens: Token[] = [];
  for (let i = 0; i < body.length; i++) {
    const char = body[i] as string;
    if (char === '\\' && i + 1 < body.length) tokens.push({ kind: 'char', char: body[++i] as string });
    else if (char === '*' && body[i + 1] === '*') {
      while (body[i + 1] === '*') i++;
      tokens.push({ kind: 'globstar' });
    } else if (char === '*') tokens.push({ kind: 'star' });
    else if (char === '?') tokens.push({ kind: 'any' });
    else tokens.push({ kind: 'char', char });
  }
  const compiled: CompiledGlob = { test: (text) => run(tokens, optionalTail, text) };
  if (cache.size > 2000) cache.clear();
  cache.set(glob, compiled);
  return compiled;
}

/** Whether `text` matches the rule glob `glob` as a whole. */
export function matchGlob(glob: string, text: string): boolean {
  return compileGlob(glob).test(text);
}

/** Escapes `text` so that, as a glob, it matches exactly itself (used to offer a command line as a pattern). */
export function escapeGlob(text: string): string {
  return text.replace(/[\\*?]/g, (char) => `\\${char}`);
}

/** Whether a glob has wildcards at all. */
export function hasWildcards(glob: string): boolean {
  return /(^|[^\\])[*?]/.test(glob);
}

// The positions of the glob the text may have reached, advanced one character at a time: O(text × positions).
function run(tokens: readonly Token[], optionalTail: boolean, text: string): boolean {
  const end = tokens.length;
  const mark = new Int32Array(end + 1).fill(-1);
  let active: number[] = [];
  // Adds position j (and, past a `*` or `**`, the position after it: they may match nothing) for step `at`.
  const add = (list: number[], from: number, at: number) => {
    for (let j = from; j <= end && mark[j] !== at; j++) {
      mark[j] = at;
      list.push(j);
      const kind = tokens[j]?.kind;
      if (kind !== 'star' && kind !== 'globstar') break;
    }
  };
  add(active, 0, 0);
  for (let at = 0; at < text.length; at++) {
    const char = text[at] as string;
    // The tail: the body matched so far, then white space and anything at all.
    if (optionalTail && mark[end] === at && SPACE.test(char)) return true;
    const next: number[] = [];
    for (const j of active) {
      const token = tokens[j];
      if (!token) continue;
      if (token.kind === 'char' ? token.char === char : token.kind !== 'star' || char !== '/')
        add(next, token.kind === 'star' || token.kind === 'globstar' ? j : j + 1, at + 1);
    }
    if (next.length === 0) return false;
    active = next;
  }
  return mark[end] === text.length;
}
