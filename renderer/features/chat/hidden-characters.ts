// Code in a reply as the person sees it (docs/security.md, "What the person sees"): a steered model can write a
// command whose bidi controls make the page show one line while the text is another ("Trojan Source": `echo x #; curl
// … | sh` on screen, `echo x ; curl … | sh #` when pasted). In code, bidi, zero-width and control characters (but tab
// and line feed) are shown as escapes (`\u{202e}`), the same ones the approval prompt uses, and Copy copies that. In
// the rest of a reply, bidi embeddings, overrides and isolates are escaped: one runs on to the end of its paragraph,
// so it could reverse the host a link shows or a file name, and right-to-left text never needs them (marks and
// joiners, which it does use, stay).

import { escapeExplicitBidi, escapeHidden } from '../../../preload/contract/hidden-characters';

/** `code` with its hidden characters shown as escapes. */
export function shownCode(code: string): string {
  return escapeHidden(code);
}

/** A reply's text with its bidi embeddings, overrides and isolates shown as escapes. */
export function shownProse(text: string): string {
  return escapeExplicitBidi(text);
}
