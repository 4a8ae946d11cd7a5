// Whether a reply is safe to hand to the Markdown renderer (docs/robustness.md, "The renderer"). A model writes the
// text, and a few kilobytes can break the parser: nested block quotes and lists recurse once per level (3,000 `>`
// overflow the stack, which unmounts the page), and unmatched `[` cost quadratic work. A reply past these bounds is
// shown as plain text; the check is one linear pass.

/** The longest reply rendered as Markdown. */
export const MAX_MARKDOWN_CHARS = 200_000;
/** The longest run of container markers and indentation opening a line (about 100 levels of nesting). */
export const MAX_CONTAINER_PREFIX = 200;
/** The most `[` a reply rendered as Markdown may hold. */
export const MAX_BRACKETS = 5_000;

// Block quote markers, list markers and the blanks between them, as they open a line.
const CONTAINER_PREFIX = /^(?:[ \t]+|>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))*/gm;

/** Whether `text` is rendered as Markdown (true) or shown as plain text (false). */
export function markdownSafe(text: string): boolean {
  if (text.length > MAX_MARKDOWN_CHARS) return false;
  let brackets = 0;
  for (let at = text.indexOf('['); at !== -1; at = text.indexOf('[', at + 1))
    if (++brackets > MAX_BRACKETS) return false;
  for (const match of text.matchAll(CONTAINER_PREFIX))
    if (match[0].length > MAX_CONTAINER_PREFIX) return false;
  return true;
}
