// Partial secrets: how much of a text's end could be the start of a secret form (what a stream must hold back),
// and how much of a text's start could be the end of one (what a cut left behind). A KMP automaton per form keeps
// this linear in the text, whatever the secrets look like.
import type { KeyedForm } from './secret-matcher';
import { foldCase } from './secret-forms';

/** A form's KMP automaton over UTF-16 units. */
export class FormAutomaton {
  private readonly fail: Int32Array;

  constructor(readonly text: string) {
    this.fail = failureTable(text);
  }

  /** The state after `unit`: how many units of the form the text now ends with (its length on a full match). */
  step(state: number, unit: string): number {
    const text = this.text;
    let s = state === text.length ? (this.fail[state - 1] as number) : state;
    while (s > 0 && text[s] !== unit) s = this.fail[s - 1] as number;
    if (text[s] === unit) s++;
    return s;
  }

  /** The part of a state that can still grow into a match (after a full match, the form's own border). */
  open(state: number): number {
    return state === this.text.length ? (this.fail[state - 1] as number) : state;
  }
}

/** Streams text through every form's automaton; `open()` is how many trailing units could begin a secret. */
export class PartialTracker {
  private readonly automata: FormAutomaton[];
  private readonly states: number[];

  constructor(private readonly forms: readonly KeyedForm[]) {
    this.automata = forms.map((form) => new FormAutomaton(form.text));
    this.states = forms.map(() => 0);
  }

  /** Feeds the next text of the stream. */
  feed(text: string): void {
    if (this.forms.length === 0 || text.length === 0) return;
    const folded = this.forms.some((form) => form.folded) ? foldCase(text) : text;
    this.forms.forEach((form, index) => {
      const automaton = this.automata[index] as FormAutomaton;
      const units = form.folded ? folded : text;
      let state = this.states[index] as number;
      for (let i = 0; i < units.length; i++) state = automaton.step(state, units[i] as string);
      this.states[index] = state;
    });
  }

  /** The longest end of the stream so far that is the beginning of some form (0 when none). */
  open(): number {
    let longest = 0;
    this.states.forEach((state, index) => {
      longest = Math.max(longest, (this.automata[index] as FormAutomaton).open(state));
    });
    return longest;
  }
}

/** A partial secret at one edge of a text: how many units, and whose. */
export interface Partial {
  length: number;
  key: string;
}

/** A form with its automaton, built once per set of secrets. */
export interface FormScanner {
  form: KeyedForm;
  automaton: FormAutomaton;
}

/** Scanners for the forms as they are (to find their starts) or reversed (to find their ends). */
export function formScanners(forms: readonly KeyedForm[], reversed = false): FormScanner[] {
  return forms.map((form) => {
    const text = reversed ? reverse(form.text) : form.text;
    return { form: { ...form, text }, automaton: new FormAutomaton(text) };
  });
}

/** The longest end of `text` that begins some form (at least `min` units), or null. */
export function trailingPartial(text: string, scanners: readonly FormScanner[], min = 1): Partial | null {
  let best: Partial | null = null;
  for (const { form, automaton } of scanners) {
    // Only the last |form| - 1 units can be part of a proper prefix.
    const tail = text.slice(Math.max(0, text.length - form.text.length + 1));
    const units = form.folded ? foldCase(tail) : tail;
    let state = 0;
    for (let i = 0; i < units.length; i++) state = automaton.step(state, units[i] as string);
    const length = automaton.open(state);
    if (length >= min && length > (best?.length ?? 0)) best = { length, key: form.key };
  }
  return best;
}

/** The longest start of `text` that ends some form (at least `min` units); `reversed` from formScanners(…, true). */
export function leadingPartial(text: string, reversed: readonly FormScanner[], min = 1): Partial | null {
  if (reversed.length === 0) return null;
  // A start of `text` that ends a form is an end of the reversed text that begins the reversed form.
  const longest = Math.max(...reversed.map(({ form }) => form.text.length));
  return trailingPartial(reverse(text.slice(0, longest)), reversed, min);
}

function reverse(text: string): string {
  let out = '';
  for (let i = text.length - 1; i >= 0; i--) out += text[i];
  return out;
}

function failureTable(text: string): Int32Array {
  const fail = new Int32Array(text.length);
  let k = 0;
  for (let i = 1; i < text.length; i++) {
    while (k > 0 && text[i] !== text[k]) k = fail[k - 1] as number;
    if (text[i] === text[k]) k++;
    fail[i] = k;
  }
  return fail;
}
