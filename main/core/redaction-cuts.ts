// Secrets split by an output cap: a cut in the middle of a secret leaves its start before the truncation note and
// its end after it, neither of which matches as a whole. Both are scrubbed next to every note, next to a mask
// of asterisks (an API's "Incorrect API key provided: sk-abc****xyz4" shows a key's start and end), and next to an
// ellipsis (a log's "using key sk-abc123def...").
import type { SecretMatcher } from './secret-matcher';
import { redactionMark } from './secret-matcher';
import type { FormScanner } from './secret-partials';
import { formScanners, leadingPartial, trailingPartial } from './secret-partials';
import { foldCase } from './secret-forms';

/**
 * The shortest piece of a secret scrubbed next to a cut. Shorter pieces say next to nothing about a secret and
 * match by chance all the time (a key starting with "s" next to a cut after an "s").
 */
export const CUT_PARTIAL_MIN = 3;

// Every cap note says "[output truncated: … cut]" (main/process/process-group-output.ts, main/core/outcome.ts,
// main/adapters/mcp/call-result.ts); a mask is three or more asterisks or two bullets; a key shortened by its printer ends
// in an ellipsis or says so ("sk-abc123..", "sk-abc123…", "sk-abc123 (truncated)").
const NOTE = /\[output truncated: [^\]\n]{1,120}\]|\*{3,}|\.{2,}|\u2026|\u2022{2,}|[[(]truncated[\])]/g;

/** Most cuts and masks of one text looked at in full (each costs a scan of every form): a bound on the cost. */
export const MAX_CUTS_SCANNED = 256;

// Per set of secrets: the scanners both ways, and every run of CUT_PARTIAL_MIN units any form holds (a piece next
// to a cut must end, or start, with one of them, so most cuts are passed over at the cost of a set lookup).
interface CutScanners {
  forward: FormScanner[];
  backward: FormScanner[];
  grams: Set<string>;
}
const scanners = new WeakMap<SecretMatcher, CutScanners>();

function scannersOf(matcher: SecretMatcher): CutScanners {
  let found = scanners.get(matcher);
  if (!found) {
    const grams = new Set<string>();
    for (const form of matcher.forms)
      for (let i = 0; i + CUT_PARTIAL_MIN <= form.text.length; i++)
        grams.add(form.text.slice(i, i + CUT_PARTIAL_MIN));
    found = { forward: formScanners(matcher.forms), backward: formScanners(matcher.forms, true), grams };
    scanners.set(matcher, found);
  }
  return found;
}

function mayHold(piece: string, grams: Set<string>): boolean {
  return piece.length >= CUT_PARTIAL_MIN && (grams.has(piece) || grams.has(foldCase(piece)));
}

/** `text` with the pieces of secrets next to each truncation note or mask replaced by `[redacted:KEY]`. */
export function scrubCuts(text: string, matcher: SecretMatcher): string {
  if (
    matcher.empty ||
    (!text.includes('[output truncated: ') &&
      !text.includes('***') &&
      !text.includes('..') &&
      !text.includes('\u2026') &&
      !text.includes('\u2022\u2022') &&
      !text.includes('truncated'))
  )
    return text;
  const notes = [...text.matchAll(NOTE)];
  if (notes.length === 0) return text;
  const { forward, backward, grams } = scannersOf(matcher);
  let scanned = 0;
  let out = '';
  let at = 0;
  for (const [index, note] of notes.entries()) {
    const start = note.index;
    const end = start + note[0].length;
    const nextStart = notes[index + 1]?.index ?? text.length;
    // Between the previous note's end and this note: the end of the kept head.
    // A note stands on a line of its own, or after a space where a message was cut (main/core/clip-chars.ts).
    let before = text.slice(at, start);
    const head = before.replace(/[\n ]$/, '');
    const lead =
      mayHold(head.slice(-CUT_PARTIAL_MIN), grams) && scanned++ < MAX_CUTS_SCANNED
        ? trailingPartial(head, forward, CUT_PARTIAL_MIN)
        : null;
    if (lead) {
      const keep = head.length - lead.length;
      before = before.slice(0, keep) + redactionMark(lead.key) + before.slice(keep + lead.length);
    }
    out += before + note[0];
    // After the note: the start of the kept tail (up to the next note). An ellipsis ends a shortened key and starts
    // nothing of one (after it come ordinary words: `{ ...passwordCount }`), so nothing after it is scrubbed.
    const after = text.slice(end, nextStart);
    const newline = after.startsWith('\n') || after.startsWith(' ') ? 1 : 0;
    const rest = after.slice(newline);
    const ellipsis = note[0] === '\u2026' || note[0].startsWith('..');
    const tail =
      !ellipsis && mayHold(rest.slice(0, CUT_PARTIAL_MIN), grams) && scanned++ < MAX_CUTS_SCANNED
        ? leadingPartial(rest, backward, CUT_PARTIAL_MIN)
        : null;
    if (tail) {
      out += after.slice(0, newline) + redactionMark(tail.key);
      at = end + newline + tail.length;
    } else at = end;
  }
  return out + text.slice(at);
}
