// An attached file's name, made safe twice over (docs/attachments.md, "Names"): for showing it (no control, format
// or bidi characters that would disguise it) and for saving it (one plain file name on every OS: no separators or
// look-alikes, no `.`/`..`, no leading dot, no Windows reserved name or trailing dot, bounded in bytes).

/** The longest saved file name, in UTF-8 bytes (file systems allow 255; the rest leaves room for a `-NN` suffix). */
export const SAVED_NAME_BYTES = 120;
/** The longest name shown to the person and the model, in characters. */
const SHOWN_NAME_CHARS = 200;

// Controls, format characters (bidi overrides and isolates, zero-width joiners, BOM), line and paragraph separators,
// lone surrogates and private-use characters.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}]/gu;
// Characters that separate or are special in paths on some OS, and look-alikes of the separators (after NFKC, the
// full-width forms have become `/` and `\`; these remain).
const UNSAFE_IN_NAME = /[/\\:*?"<>|\u2044\u2215\u2216\u29f5\u29f8\u29f9\ufe68]/g;
// Windows refuses these names whatever their extension (`con.txt` too); COM¹ is COM1 after NFKC.
const WINDOWS_RESERVED = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9]|conin\$|conout\$)\s*(?:\.|$)/i;

/** The name as shown to the person and in the model's text: its last path part, without invisible characters. */
export function shownName(raw: string): string {
  const base = lastPart(raw.normalize('NFC').replace(INVISIBLE, ''));
  const trimmed = base.trim();
  const shown = trimmed === '' ? 'attachment' : trimmed;
  return [...shown].length > SHOWN_NAME_CHARS
    ? `${[...shown].slice(0, SHOWN_NAME_CHARS - 1).join('')}…`
    : shown;
}

/**
 * A file name safe to create in the attachments folder on any OS; `extension` (e.g. ".png") is added when the name
 * has none of its own.
 */
export function savedName(raw: string, extension: string): string {
  let name = lastPart(raw.normalize('NFKC').replace(INVISIBLE, ''))
    .replace(UNSAFE_IN_NAME, '_')
    .replace(/\s+/g, ' ')
    .trim()
    // Windows drops trailing dots and spaces, so `a.txt.` and `a.txt` would be one file there.
    .replace(/[. ]+$/, '');
  if (name === '') name = 'attachment';
  // No hidden files and never `.` or `..`: a leading dot is kept visible behind an underscore.
  if (name.startsWith('.')) name = `_${name}`;
  if (WINDOWS_RESERVED.test(name)) name = `_${name}`;
  const [stem, ext] = splitExtension(name);
  const finalExt = ext === '' ? extension : ext;
  return `${cutToBytes(stem, SAVED_NAME_BYTES - byteLength(finalExt))}${finalExt}`;
}

/** `name` with `-n` before its extension: the n-th try at a name nothing else holds. */
export function numberedName(name: string, n: number): string {
  const [stem, ext] = splitExtension(name);
  const suffix = `-${n}`;
  return `${cutToBytes(stem, SAVED_NAME_BYTES - byteLength(ext) - suffix.length)}${suffix}${ext}`;
}

// Browsers give a bare name, but a name may arrive with a path (a script, a drag from some file managers): only its
// last part counts, whichever separator it uses.
function lastPart(name: string): string {
  const parts = name.split(/[/\\]/);
  return parts[parts.length - 1] ?? '';
}

// A short plain extension (".tar.gz" keeps ".gz"); a name that is all extension (".env" after the underscore) has one.
function splitExtension(name: string): [string, string] {
  const match = /^(.+?)(\.[A-Za-z0-9]{1,10})$/.exec(name);
  return match ? [match[1] as string, match[2] as string] : [name, ''];
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

// Cut by whole characters (never half a surrogate pair), and never down to nothing.
function cutToBytes(text: string, max: number): string {
  let out = '';
  for (const char of text) {
    if (byteLength(out + char) > max) break;
    out += char;
  }
  return out.replace(/[. ]+$/, '') || 'attachment';
}
