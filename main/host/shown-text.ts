// Text a model, a tool or a server wrote, as the windows show it on a call's card and in the rules list
// (docs/security.md, "What the person sees"): bidi, zero-width and control characters become visible escapes, as in
// the approval prompt, so a card or a saved rule cannot reorder or hide what it says. Line breaks and tabs stay.
import type { ResultFile, TodoItem } from '../../preload/contract';
import { visible } from '../gate/format-request';
import { clipMarked } from '../core/clip-chars';

/** `text` with its hidden characters shown as escapes; `\r\n` and a lone `\r` count as line breaks. */
export function shownText(text: string): string {
  return visible(text.replace(/\r\n?/g, '\n'));
}

/**
 * A call's arguments (JSON text) with every string in them shown so, still JSON for the card to lay out. JSON that
 * does not parse, or nests too deep to walk, is shown as text.
 */
export function shownArgs(json: string): string {
  // JSON already escapes C0 controls; bidi and zero-width characters it leaves as they are.
  if (visible(json) === json) return json;
  try {
    return JSON.stringify(showStrings(JSON.parse(json)));
  } catch {
    return shownText(json);
  }
}

/**
 * A view of a tool or a server for the Tools panel with every string in it (keys too) shown so: descriptions,
 * warnings and reasons are what a tool's author or a server wrote.
 */
export function shownStrings<T>(value: T): T {
  return showStrings(value) as T;
}

function showStrings(value: unknown): unknown {
  if (typeof value === 'string') return shownText(value);
  if (Array.isArray(value)) return value.map(showStrings);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [shownText(key), showStrings(item)]));
}

/** write_todo's checklist as the side panel shows it: each item's words with hidden characters as escapes. */
export function shownTodos(items: readonly TodoItem[]): TodoItem[] {
  return items.map((item) => ({ ...item, text: shownText(item.text) }));
}

/** A write_result deliverable as the side panel shows it: its title and file name with hidden characters as escapes. */
export function shownResult(result: ResultFile): ResultFile {
  return { ...result, title: shownText(result.title), path: shownText(result.path) };
}

/** The most of one text (arguments or result) a card gets at first, in characters. */
export const CARD_TEXT_CHARS = 16_384;

/**
 * A background task's result or error as the tasks panel shows it: the start, with a mark of how much was left out
 * (the model gets the whole in its note; the panel shows 600 characters of a result).
 */
export function shownTaskText(text: string): string {
  return clipMarked(shownText(text), CARD_TEXT_CHARS);
}
