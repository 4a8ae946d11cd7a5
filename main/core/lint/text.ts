// Small text helpers shared by the lint rules.

/** Length in Unicode code points, so an accented or astral character counts once. */
export function charCount(text: string): number {
  return [...text].length;
}

/** `text` quoted for a message, cut to `max` characters. */
export function quote(text: string, max = 40): string {
  const chars = [...text];
  return JSON.stringify(chars.length > max ? `${chars.slice(0, max).join('')}…` : text);
}

/** `count` with its noun, plural when needed: "1 line", "3 lines". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * The most characters of one text that pattern checks read. Tool text comes from outside; past this a check could
 * cost quadratic time (an unclosed `**` scanned from every start), and the length rules already flag it.
 */
export const MAX_CHECKED_TEXT = 4000;

/** `text` cut to what pattern checks read (see MAX_CHECKED_TEXT). */
export function checkedText(text: string): string {
  return text.length > MAX_CHECKED_TEXT ? text.slice(0, MAX_CHECKED_TEXT) : text;
}
