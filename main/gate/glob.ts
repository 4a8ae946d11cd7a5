// Rule globs (SPEC §8): `*` matches anything but `/`, `**` anything, `?` one character, `\` escapes.

const cache = new Map<string, RegExp>();

/** Compiles a rule glob to an anchored regular expression. A trailing ` **` may also match nothing, so `git log **` covers `git log`. */
export function globToRegExp(glob: string): RegExp {
  const cached = cache.get(glob);
  if (cached) return cached;
  let source = '';
  let body = glob;
  // "git log **" should cover the bare "git log" too: the space and the rest are optional together.
  const optionalTail = body.endsWith(' **') && !body.endsWith('\\ **');
  if (optionalTail) body = body.slice(0, -3);
  for (let i = 0; i < body.length; i++) {
    const char = body[i] as string;
    if (char === '\\' && i + 1 < body.length) {
      source += escapeRegExp(body[++i] as string);
    } else if (char === '*' && body[i + 1] === '*') {
      while (body[i + 1] === '*') i++;
      source += '.*';
    } else if (char === '*') {
      source += '[^/]*';
    } else if (char === '?') {
      source += '.';
    } else {
      source += escapeRegExp(char);
    }
  }
  if (optionalTail) source += '(?:\\s.*)?';
  const regExp = new RegExp(`^${source}$`, 's');
  if (cache.size > 2000) cache.clear();
  cache.set(glob, regExp);
  return regExp;
}

/** Whether `text` matches the rule glob `glob` as a whole. */
export function matchGlob(glob: string, text: string): boolean {
  return globToRegExp(glob).test(text);
}

/** Escapes `text` so that, as a glob, it matches exactly itself (used to offer a command line as a pattern). */
export function escapeGlob(text: string): string {
  return text.replace(/[\\*?]/g, (char) => `\\${char}`);
}

/** Whether a glob has wildcards at all. */
export function hasWildcards(glob: string): boolean {
  return /(^|[^\\])[*?]/.test(glob);
}

function escapeRegExp(char: string): string {
  return /[.*+?^${}()|[\]\\/-]/.test(char) ? `\\${char}` : char;
}
