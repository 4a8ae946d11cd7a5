// Cutting text a window or a model is shown to a number of characters (UTF-16 units) without ever ending on half of
// a surrogate pair, which would show as a broken character or fail to encode.

/** The first `max` characters of `text` (one fewer where the last would be half of a pair) and how many were left out. */
export function clipChars(text: string, max: number): { text: string; cut: number } {
  if (text.length <= max) return { text, cut: 0 };
  const end = max > 0 && /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : Math.max(0, max);
  return { text: text.slice(0, end), cut: text.length - end };
}

/** `text` cut to `max` characters, with a mark of how many more there were. */
export function clipMarked(text: string, max: number): string {
  const { text: kept, cut } = clipChars(text, max);
  return cut > 0 ? `${kept}… [${cut} more characters cut]` : kept;
}

/**
 * `text` cut to `max` characters, the cut saying so in the redactor's own words ("[output truncated: N characters
 * cut]"), so that a secret split by it is still scrubbed on both sides (main/core/redaction-cuts.ts).
 */
export function clipNoted(text: string, max: number): string {
  const { text: kept, cut } = clipChars(text, max);
  return cut > 0 ? `${kept} [output truncated: ${cut} characters cut]` : kept;
}
