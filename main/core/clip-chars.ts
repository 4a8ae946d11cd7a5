// The cuts of text the windows and the model are shown live in tools/sdk/clip-chars.ts, so built-in tools cut with
// the same note the redactor scrubs around (main/core/redaction-cuts.ts).
export { clipChars, clipMarked, clipNoted } from '../../tools/sdk/clip-chars';
