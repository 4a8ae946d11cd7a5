// Secrets that something put inside them runs through (docs/security.md, "Redaction"): a line break, as MIME base64
// wrapped at 76 columns, a PEM body, a tool's output folded to the terminal's width, a quoted mail ("> ") or a JSON
// string holding such text (an escaped "\r\n") writes it; a quoted-printable soft break ("=" at a line's end); a
// terminal's colour codes around a match (`grep --color`); a key cut across two text parts of one result. The text
// is matched once more with all of these taken out, and each match found so is replaced in the text as written, what
// ran through it included. Matching stays linear: one more pass over a text that holds any of them, none otherwise.
import type { SecretMatch, SecretMatcher } from './secret-matcher';
import { redactionMark, replaceMatches } from './secret-matcher';
import { foldCase } from './secret-forms';

// What wrapping or colouring puts inside a value: line breaks (real or JSON-escaped, after a soft break's "=") with
// the next line's indentation and quote marks; terminal control sequences (CSI: colours, erasing).
// eslint-disable-next-line no-control-regex -- terminal control sequences are what it takes out
const JOIN = /(?:=?(?:\r\n|\n|\r|\\r\\n|\\n|\\r)[ \t>]*|\x1b\[[0-9;?]*[ -/]*[@-~])+/g;
// eslint-disable-next-line no-control-regex -- as above
const MAY_JOIN = /[\r\n\x1b]|\\[rn]/;

/**
 * The matches in `text` of secrets that run through a line break, as spans of `text` (the breaks inside them
 * included); also any that do not, which the caller has replaced already or replaces the same way.
 */
export function wrappedMatches(text: string, matcher: SecretMatcher): SecretMatch[] {
  if (matcher.empty || !MAY_JOIN.test(text)) return [];
  // Where each join is. A secret that runs across one holds three units around it (every form is at least four
  // long): most texts, whose joins have no such three units, are not matched again.
  const grams = gramsOf(matcher);
  const spans: number[] = [];
  let candidate = false;
  let pieceStart = 0;
  JOIN.lastIndex = 0;
  for (let match = JOIN.exec(text); match !== null; match = JOIN.exec(text)) {
    const end = match.index + match[0].length;
    spans.push(match.index, end);
    if (!candidate) candidate = straddles(text, pieceStart, match.index, end, grams);
    pieceStart = end;
  }
  if (!candidate) return [];
  // The text with the joins taken out; units after the k-th join are shifted by the length of every join up to it.
  const pieces: string[] = [];
  const joins: { at: number; shift: number }[] = [];
  let shift = 0;
  let from = 0;
  for (let i = 0; i < spans.length; i += 2) {
    const start = spans[i] as number;
    const end = spans[i + 1] as number;
    pieces.push(text.slice(from, start));
    shift += end - start;
    from = end;
    joins.push({ at: from - shift, shift });
  }
  pieces.push(text.slice(from));
  const found = matcher.find(pieces.join(''));
  if (found.length === 0) return [];
  const place = (unit: number): number => {
    // The last join at or before `unit` (binary search: joins are in order).
    let low = 0;
    let high = joins.length - 1;
    let before = 0;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const entry = joins[middle] as { at: number; shift: number };
      if (entry.at <= unit) {
        before = entry.shift;
        low = middle + 1;
      } else high = middle - 1;
    }
    return unit + before;
  };
  return found.map((match) => ({
    start: place(match.start),
    end: place(match.end - 1) + 1,
    key: match.key,
  }));
}

// Every run of three units of every form, per set of secrets.
const GRAM = 3;
const gramSets = new WeakMap<SecretMatcher, Set<string>>();

function gramsOf(matcher: SecretMatcher): Set<string> {
  let grams = gramSets.get(matcher);
  if (!grams) {
    grams = new Set();
    for (const form of matcher.forms)
      for (let i = 0; i + GRAM <= form.text.length; i++) grams.add(form.text.slice(i, i + GRAM));
    gramSets.set(matcher, grams);
  }
  return grams;
}

// Whether a form could run across the join [start, end) of `text`, whose piece before it begins at `pieceStart`: one
// of the two runs of three units that straddle it (each side keeps at least one) is a run of some form, as it is or
// case-folded. A piece too short to tell (a line of one unit, a join right after) counts as one that could.
function straddles(
  text: string,
  pieceStart: number,
  start: number,
  end: number,
  grams: Set<string>,
): boolean {
  if (start - pieceStart < 2 || end + 2 > text.length) return end < text.length;
  const after = text.slice(end, end + 2);
  if (MAY_JOIN.test(after)) return true;
  const first = text.slice(start - 2, start) + (after[0] as string);
  const second = (text[start - 1] as string) + after;
  return has(grams, first) || has(grams, second);
}

function has(grams: Set<string>, run: string): boolean {
  return grams.has(run) || grams.has(foldCase(run));
}

/** `text` with every secret that runs through a join replaced by its mark (the join with it). */
export function scrubWrapped(text: string, matcher: SecretMatcher): string {
  const matches = wrappedMatches(text, matcher);
  return matches.length === 0 ? text : replaceMatches(text, matches);
}

// What one text loses of a secret: [start, end) of it, replaced by `mark` ('' past the text where the secret starts).
interface Cut {
  start: number;
  end: number;
  mark: string;
}

/**
 * Texts read one after another (the text parts of one result, which the model reads joined by line breaks) with
 * every secret that runs from one into the next scrubbed: the text where it starts gets the mark, and the others
 * lose what it covered. Null when nothing ran across.
 */
export function scrubAcross(texts: readonly string[], matcher: SecretMatcher): string[] | null {
  if (texts.length < 2 || matcher.empty) return null;
  const matches = wrappedMatches(texts.join('\n'), matcher);
  if (matches.length === 0) return null;
  const starts: number[] = [];
  let offset = 0;
  for (const text of texts) {
    starts.push(offset);
    offset += text.length + 1;
  }
  let crossed = false;
  const cuts: Cut[][] = texts.map(() => []);
  for (const match of matches) {
    let first = true;
    for (let i = 0; i < texts.length; i++) {
      const start = starts[i] as number;
      const low = Math.max(match.start, start);
      const high = Math.min(match.end, start + (texts[i] as string).length);
      if (high <= low) continue;
      if (!first) crossed = true;
      (cuts[i] as Cut[]).push({
        start: low - start,
        end: high - start,
        mark: first ? redactionMark(match.key) : '',
      });
      first = false;
    }
  }
  if (!crossed) return null;
  return texts.map((text, i) => {
    let out = '';
    let at = 0;
    for (const cut of cuts[i] as Cut[]) {
      out += text.slice(at, cut.start) + cut.mark;
      at = cut.end;
    }
    return out + text.slice(at);
  });
}
