// File names as case-insensitive file systems compare them (docs/security.md, "Files the tools write"): NFKC, so `ſ`
// is `s` and the Kelvin sign `k` as APFS and NTFS fold them; without the code points HFS+ ignores in names (zero-width
// and bidi controls, U+FEFF: `.g\u200cit` is `.git` there); lower case. The protected-file list and the sensitive
// targets both compare through it, so a spelling one of them misses cannot reach what the other guards.

const IGNORED_IN_NAMES = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/** `name` as APFS, NTFS or HFS+ would compare it. */
export function foldName(name: string): string {
  // Printable ASCII is its own NFKC form and holds none of the ignored code points: most names, on every call the
  // gate looks at (docs/security.md, "Nothing skips the gate").
  if (PRINTABLE_ASCII.test(name)) return name.toLowerCase();
  return name.normalize('NFKC').replace(IGNORED_IN_NAMES, '').toLowerCase();
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
