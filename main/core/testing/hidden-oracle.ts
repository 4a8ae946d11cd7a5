// What the attack tests on hidden characters look for, written apart from the product's own list
// (preload/contract/hidden-characters.ts) so a character dropped from that list fails them: bidi overrides and isolates,
// zero-width characters, C1 controls, the line and paragraph separators.
export const SHOWN_HIDDEN = /[\u0080-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;

/** The right-to-left override, which reverses what follows it. */
export const RLO = '\u202e';
/** The zero-width space, which hides where it stands. */
export const ZWSP = '\u200b';
