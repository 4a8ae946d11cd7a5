// Finds every form of every known secret in a text: two regular expressions (folded forms over the folded text,
// exact forms over the text itself) built once per set of secrets, so the cost per text stays linear.
import type { SecretForm } from './secret-forms';
import { foldCase } from './secret-forms';

/** One form of one secret, with the key name it is redacted as. */
export interface KeyedForm extends SecretForm {
  key: string;
}

/** Where a secret form was found: [start, end) in the text. */
export interface SecretMatch {
  start: number;
  end: number;
  key: string;
}

/** The compiled matcher of one set of forms. */
export class SecretMatcher {
  private readonly folded: RegExp | null;
  private readonly exact: RegExp | null;
  private readonly keys = { folded: new Map<string, string>(), exact: new Map<string, string>() };

  constructor(readonly forms: readonly KeyedForm[]) {
    for (const form of forms) {
      const map = form.folded ? this.keys.folded : this.keys.exact;
      if (!map.has(form.text)) map.set(form.text, form.key);
    }
    this.folded = alternation([...this.keys.folded.keys()]);
    this.exact = alternation([...this.keys.exact.keys()]);
  }

  /** Whether there is nothing to find. */
  get empty(): boolean {
    return this.forms.length === 0;
  }

  /** Non-overlapping matches in order; where two overlap, the earlier (then the longer) wins. */
  find(text: string): SecretMatch[] {
    if (text.length === 0) return [];
    const found: SecretMatch[] = [];
    if (this.folded) collect(foldCase(text), this.folded, this.keys.folded, found);
    if (this.exact) collect(text, this.exact, this.keys.exact, found);
    return nonOverlapping(found);
  }
}

/** `found` in order without overlaps: where two overlap, the earlier (then the longer) wins. */
export function nonOverlapping(found: SecretMatch[]): SecretMatch[] {
  if (found.length < 2) return found;
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: SecretMatch[] = [];
  let end = 0;
  for (const match of found) {
    if (match.start < end) continue;
    kept.push(match);
    end = match.end;
  }
  return kept;
}

/** `text` with every match replaced by `[redacted:KEY]`. */
export function replaceMatches(text: string, matches: readonly SecretMatch[]): string {
  if (matches.length === 0) return text;
  let out = '';
  let at = 0;
  for (const match of matches) {
    out += text.slice(at, match.start) + redactionMark(match.key);
    at = match.end;
  }
  return out + text.slice(at);
}

/** What a secret is replaced with. */
export function redactionMark(key: string): string {
  return `[redacted:${key}]`;
}

function alternation(texts: string[]): RegExp | null {
  if (texts.length === 0) return null;
  // Longest first: a secret that contains another is replaced whole.
  const source = [...texts]
    .sort((a, b) => b.length - a.length)
    .map((text) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'))
    .join('|');
  return new RegExp(source, 'g');
}

function collect(text: string, pattern: RegExp, keys: Map<string, string>, into: SecretMatch[]): void {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    into.push({
      start: match.index,
      end: match.index + match[0].length,
      key: keys.get(match[0]) ?? 'secret',
    });
  }
}
