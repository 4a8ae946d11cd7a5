// Shell globs in a model's words, tested against the short names of docs/security.md (`.ssh`, `secret-tool`…):
// `*` and `?` never match `/` nor a leading dot, `[…]` is a class (`[!…]` negated), case is ignored. Compiled in one
// pass and matched without backtracking, so no word can make a test slow, however many wildcards it holds.

/** One element of a compiled glob. */
type Token =
  | { kind: 'star' }
  | { kind: 'any'; first: boolean }
  | { kind: 'char'; char: string }
  | { kind: 'class'; negated: boolean; singles: string; ranges: Array<[number, number]> };

/** A compiled shell glob. */
export interface ShellGlob {
  /** Whether the whole of `name` matches. */
  test(name: string): boolean;
}

// A class a regular expression would reject (`[z-a]`) was taken to match anything: so is it here.
const ANYTHING: ShellGlob = { test: () => true };

/** Compiles a shell glob; linear in its length. */
export function compileShellGlob(glob: string): ShellGlob {
  const closes = nextCloses(glob);
  const tokens: Token[] = [];
  let fixed = 0;
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === '*') {
      // Runs of `*` are one `*`.
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
      continue;
    }
    fixed++;
    if (char === '?') tokens.push({ kind: 'any', first: i === 0 });
    else if (char === '[' && (closes[i + 2] ?? -1) !== -1) {
      const end = closes[i + 2] as number;
      const token = classToken(glob.slice(i + 1, end));
      if (!token) return ANYTHING;
      tokens.push(token);
      i = end;
    } else tokens.push({ kind: 'char', char: char.toLowerCase() });
  }
  const noLeadingDot = glob[0] === '*';
  return {
    test: (name) => {
      // Every element but `*` takes one character: a longer glob cannot match.
      if (fixed > name.length) return false;
      if (noLeadingDot && name[0] === '.') return false;
      return matches(tokens, name);
    },
  };
}

/** How many characters of a word are not wildcards (`*`, `?`, a closed `[…]`); linear in its length. */
export function globLiteralLength(word: string): number {
  const closes = nextCloses(word);
  let count = 0;
  for (let i = 0; i < word.length; i++) {
    const char = word[i];
    if (char === '*' || char === '?') continue;
    const close = char === '[' ? (closes[i + 1] ?? -1) : -1;
    if (close !== -1) i = close;
    else count++;
  }
  return count;
}

// For each position, where the next `]` at or after it is (-1: none); one pass from the end.
function nextCloses(text: string): Int32Array {
  const closes = new Int32Array(text.length + 2).fill(-1);
  for (let i = text.length - 1; i >= 0; i--) closes[i] = text[i] === ']' ? i : (closes[i + 1] as number);
  return closes;
}

function classToken(body: string): Token | null {
  const negated = body.startsWith('!') || body.startsWith('^');
  const rest = negated ? body.slice(1) : body;
  let singles = '';
  const ranges: Array<[number, number]> = [];
  for (let j = 0; j < rest.length; j++) {
    const from = rest[j] as string;
    if (rest[j + 1] === '-' && j + 2 < rest.length) {
      const low = from.codePointAt(0) as number;
      const high = (rest[j + 2] as string).codePointAt(0) as number;
      if (low > high) return null;
      ranges.push([low, high]);
      j += 2;
    } else singles += from;
  }
  return { kind: 'class', negated, singles, ranges };
}

function inClass(token: Extract<Token, { kind: 'class' }>, char: string): boolean {
  const forms = new Set([char, char.toLowerCase(), char.toUpperCase()]);
  for (const form of forms) {
    if (token.singles.includes(form)) return true;
    const code = form.codePointAt(0) as number;
    if (token.ranges.some(([low, high]) => code >= low && code <= high)) return true;
  }
  return false;
}

function takes(token: Token, char: string, at: number): boolean {
  switch (token.kind) {
    case 'star':
      return char !== '/';
    case 'any':
      return char !== '/' && !(token.first && at === 0 && char === '.');
    case 'char':
      return char.toLowerCase() === token.char;
    case 'class':
      return inClass(token, char) !== token.negated;
  }
}

// The set of glob positions reachable after each character of `name`: O(glob × name), no backtracking.
function matches(tokens: readonly Token[], name: string): boolean {
  let current = new Uint8Array(tokens.length + 1);
  current[0] = 1;
  const close = (set: Uint8Array) => {
    for (let j = 0; j < tokens.length; j++) if (set[j] && tokens[j]?.kind === 'star') set[j + 1] = 1;
  };
  close(current);
  for (let at = 0; at < name.length; at++) {
    const char = name[at] as string;
    const next = new Uint8Array(tokens.length + 1);
    let any = false;
    for (let j = 0; j < tokens.length; j++) {
      const token = tokens[j] as Token;
      if (!current[j] || !takes(token, char, at)) continue;
      next[token.kind === 'star' ? j : j + 1] = 1;
      any = true;
    }
    if (!any) return false;
    close(next);
    current = next;
  }
  return current[tokens.length] === 1;
}
