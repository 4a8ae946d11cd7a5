// Expanding one shell word with a known environment (docs/security.md): tilde, parameters with their
// `${x:-y}` family, inside double quotes too. A line may set variables anywhere (loops, branches), so a variable
// stands for every value it may hold; what cannot be known (command substitution, `$RANDOM`) is an UNKNOWN piece.
import { decodeAnsiC, dashReading } from './ansi-c';
import type { WordPart } from './lex';
import { clip } from './lex';
import { tildePrefix } from './parse';

/** Stands for a piece of a value that cannot be worked out before the line runs. */
export const UNKNOWN = '\uE000';

/** What a variable may hold somewhere in the line: some values, unset, and/or something unknown. */
export interface Possible {
  values: string[];
  unset: boolean;
  unknown: boolean;
}

/** Looks up what a variable (or special parameter: `1`, `@`, `?`…) may hold. */
export type Lookup = (name: string) => Possible;

/** Most values one word may take before the rest is folded into UNKNOWN. */
export const MAX_VALUES = 64;

/** Longest value worked out; past it the rest of the value is UNKNOWN (no path or line that long matters). */
export const MAX_VALUE_CHARS = 64 * 1024;

/** Where tilde expansion applies: at the word's start, or also after `=` and each `:` (assignment values). */
export type TildeRule = 'start' | 'assignment' | 'none';

/**
 * The characters a whole expansion may still build, shared by every word of a line; once spent, every further
 * combination is UNKNOWN and the caller reports the line as not read through.
 */
export interface ExpandBudget {
  chars: number;
}

/** A budget that never runs out, for single words. */
export const UNBOUNDED: ExpandBudget = { chars: Infinity };

/** Every value a word may take, UNKNOWN marking the pieces nobody can know; `why` names the first such piece. */
export function expandParts(
  parts: readonly WordPart[],
  lookup: Lookup,
  tilde: TildeRule,
  why: string[] = [],
  budget: ExpandBudget = UNBOUNDED,
): string[] {
  if (tilde === 'assignment') {
    const segments = splitAtColons(parts);
    return segments.reduce<string[]>(
      (acc, segment, i) =>
        product(acc, expandParts(segment, lookup, 'start', why, budget), budget, i === 0 ? '' : ':'),
      [''],
    );
  }
  let rest = parts;
  let values = [''];
  const prefix = tilde === 'start' ? tildePrefix(parts) : null;
  if (prefix) {
    values = prefix.user === '' ? alternatives(lookup('HOME'), '') : [UNKNOWN];
    if (prefix.user !== '') why.push(`~${prefix.user} (another user's home folder)`);
    rest = prefix.rest;
  }
  for (const part of rest) values = product(values, expandPart(part, lookup, why, budget), budget);
  return values;
}

function expandPart(part: WordPart, lookup: Lookup, why: string[], budget: ExpandBudget): string[] {
  switch (part.kind) {
    case 'text':
      return [part.text];
    case 'opaque':
      if (part.what === 'ansi-c') return [decodeAnsiC(part.raw), dashReading(part.raw)];
      why.push(
        `${clip(part.raw)} (${part.what === 'arithmetic' ? 'an arithmetic expansion' : 'worked out only when it runs'})`,
      );
      return [UNKNOWN];
    case 'param':
      return expandParam(part, lookup, why, budget);
  }
}

function expandParam(
  part: Extract<WordPart, { kind: 'param' }>,
  lookup: Lookup,
  why: string[],
  budget: ExpandBudget,
): string[] {
  const possible = lookup(part.name);
  if (possible.unknown) why.push(`${clip(part.raw)} (a value only known when it runs)`);
  const op = part.op;
  if (op === null) return alternatives(possible, '');
  const word = () => expandParts(part.word ?? [], lookup, part.quoted ? 'none' : 'start', why, budget);
  const colon = op.startsWith(':');
  const set = possible.values.filter((value) => !colon || value !== '');
  // Whether the variable may count as unset here (`:` also counts the empty value as unset).
  const unsetCase = possible.unset || (colon && possible.values.includes(''));
  const out: string[] = [];
  switch (op.replace(':', '')) {
    case '-':
    case '=':
      out.push(...set);
      if (unsetCase || possible.unknown) out.push(...word());
      break;
    case '+':
      if (set.length > 0 || possible.unknown) out.push(...word());
      if (unsetCase) out.push('');
      break;
    case '?':
      // Unset, the shell stops with an error before the command runs: only the set values matter.
      out.push(...set);
      if (out.length === 0 && !possible.unknown) out.push('');
      break;
  }
  if (possible.unknown) out.push(UNKNOWN);
  return dedupe(out);
}

/** The values a variable stands for in a word; `unsetAs` for the unset case. */
export function alternatives(possible: Possible, unsetAs: string): string[] {
  const out = [...possible.values];
  if (possible.unset) out.push(unsetAs);
  if (possible.unknown) out.push(UNKNOWN);
  return dedupe(out);
}

// Every combination of `left` and `right` values, capped at MAX_VALUES (past it, an UNKNOWN stands for the rest)
// and each at MAX_VALUE_CHARS (past it, the value ends in UNKNOWN and grows no more). The work is paid from
// `budget`: one unit per value built, plus its length when values must be compared (only when both sides have
// several, as a single value cannot repeat), so the work stays bounded whatever the line.
function product(left: string[], right: string[], budget: ExpandBudget, join = ''): string[] {
  if (budget.chars < 0) return [UNKNOWN];
  const compared = left.length > 1 && right.length > 1 ? new Set<string>() : null;
  const list: string[] = [];
  for (const a of left)
    for (const b of right) {
      const full = a.length > MAX_VALUE_CHARS;
      const joined = a + join + b;
      const value = full
        ? a
        : joined.length > MAX_VALUE_CHARS
          ? joined.slice(0, MAX_VALUE_CHARS) + UNKNOWN
          : joined;
      budget.chars -= 1 + (compared ? value.length : 0);
      if (budget.chars < 0) return [UNKNOWN];
      if (compared) compared.add(value);
      else list.push(value);
      const size = compared ? compared.size : list.length;
      if (size > MAX_VALUES) return [...(compared ?? list)].slice(0, MAX_VALUES - 1).concat(UNKNOWN);
      // A value already cut takes nothing more from `right`: every combination would be the same value.
      if (full) break;
    }
  return compared ? [...compared] : list;
}

function dedupe(values: string[]): string[] {
  return [...new Set(values)];
}

// An assignment's value `a:~/b:~/c` gets tilde expansion after the `=` and after every unquoted `:`.
function splitAtColons(parts: readonly WordPart[]): WordPart[][] {
  const segments: WordPart[][] = [[]];
  for (const part of parts) {
    if (part.kind !== 'text' || part.quoted || !part.text.includes(':')) {
      segments[segments.length - 1]?.push(part);
      continue;
    }
    const pieces = part.text.split(':');
    pieces.forEach((piece, i) => {
      if (i > 0) segments.push([]);
      if (piece !== '') segments[segments.length - 1]?.push({ kind: 'text', text: piece, quoted: false });
    });
  }
  return segments;
}
