// Characters that act instead of showing, and the one escape both sides of the bridge show them as (docs/security.md,
// "What the person sees"). The terminal prompts (main/) and the page (renderer/) must print the same `\u{202e}` for
// the same character, so the classes live here, in the contract both may import.

// C0 controls but tab and line feed, DEL, and the C1 controls (8-bit CSI, OSC…): what a terminal acts on.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

// The controls, plus what hides or reorders text: the Arabic letter mark, zero-width spaces, joiners and marks, the
// line and paragraph separators, bidi embeddings and overrides, the word joiner, invisible operators and bidi
// isolates, and the byte-order mark.
const HIDDEN =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

// Bidi embeddings, overrides and isolates only: each runs on to the end of its paragraph.
const EXPLICIT_BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

/** One character as the visible escape `\u{001b}`. */
export function escapedCharacter(char: string): string {
  return `\\u{${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}}`;
}

/** `text` with every hidden character (controls, bidi, zero-width) shown as an escape. */
export function escapeHidden(text: string): string {
  return text.replace(HIDDEN, escapedCharacter);
}

/** `text` with only its terminal controls shown as escapes (right-to-left text keeps its marks). */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, escapedCharacter);
}

/** `text` with only its bidi embeddings, overrides and isolates shown as escapes. */
export function escapeExplicitBidi(text: string): string {
  return text.replace(EXPLICIT_BIDI, escapedCharacter);
}
