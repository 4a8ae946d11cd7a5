// Redaction of a stream that arrives in pieces (a command's live output): the end that could still become a
// secret is held back until it cannot, so no prefix of a secret is ever let out, one character at a time or not.
// A secret that runs through a line break (MIME base64, a folded line; main/core/redaction-joins.ts) is held back
// too, once three or more of its units end a line, and is scrubbed after the break even when the units before it
// were already let out.
import type { SecretMatch, SecretMatcher } from './secret-matcher';
import { nonOverlapping, replaceMatches } from './secret-matcher';
import { CUT_PARTIAL_MIN } from './redaction-cuts';
import { wrappedMatches } from './redaction-joins';
import { PartialTracker } from './secret-partials';

/** Where a stream gets the current secrets; `revision` changes whenever a secret is added. */
export interface SecretSource {
  readonly revision: number;
  matcher(): SecretMatcher;
}

// A line break: the tracker below takes out breaks and the indentation and quote marks after them, as
// redaction-joins.ts does (which also takes out what a stream seldom splits: escaped breaks, colour codes).
const BREAK_UNIT = /[\r\n]/;

/** Most units of released text kept to find a wrapped secret that began in it, beyond the longest form. */
const SHOWN_SLACK = 256;

/** One stream's redactor: push pieces, get back what is safe to show; end() lets out the rest, redacted. */
export class StreamRedactor {
  private pending = '';
  // The end of what was let out, as it was let out: where a wrapped secret held now may have begun.
  private shown = '';
  private revision = -1;
  private matcher: SecretMatcher | null = null;
  private tracker: PartialTracker | null = null;
  // The same forms over the stream with its line breaks taken out, and whether the last unit fed was in a break.
  private wrapped: PartialTracker | null = null;
  private afterBreak = false;
  private shownLimit = SHOWN_SLACK;

  constructor(private readonly source: SecretSource) {}

  /** Adds a piece; returns the redacted text that can no longer be part of a secret ('' while all of it might). */
  push(piece: string): string {
    const tracker = this.sync();
    this.pending += piece;
    // A secret added before this piece is tracked over everything still held (sync), then over the piece.
    tracker.feed(piece);
    this.feedWrapped(piece);
    const hold = Math.max(tracker.open(), this.wrappedHold());
    return this.release(Math.max(0, this.pending.length - hold));
  }

  /** Ends the stream: everything held, redacted. */
  end(): string {
    this.sync();
    const out = replaceMatches(this.pending, this.matches());
    this.pending = '';
    this.shown = '';
    this.reset();
    return out;
  }

  /** How many characters are held back now. */
  get held(): number {
    return this.pending.length;
  }

  private release(cut: number): string {
    const matcher = this.matcher as SecretMatcher;
    if (matcher.empty) {
      const out = this.pending;
      this.pending = '';
      return out;
    }
    const matches = this.matches();
    // A whole secret that the cut would split is held whole (the cut moves to its start).
    const crossing = matches.find((match) => match.start < cut && match.end > cut);
    if (crossing) cut = crossing.start;
    const out = replaceMatches(
      this.pending.slice(0, cut),
      matches.filter((match) => match.end <= cut),
    );
    this.pending = this.pending.slice(cut);
    this.shown = (this.shown + out).slice(-this.shownLimit);
    return out;
  }

  // Every secret in what is held, as spans of it: whole ones, and wrapped ones (one that began in what was let out
  // starts at 0, so what is left of it is scrubbed). Non-overlapping, in order.
  private matches(): SecretMatch[] {
    const matcher = this.matcher as SecretMatcher;
    const found = matcher.find(this.pending);
    const offset = this.shown.length;
    for (const match of wrappedMatches(this.shown + this.pending, matcher)) {
      if (match.end <= offset) continue;
      found.push({ start: Math.max(0, match.start - offset), end: match.end - offset, key: match.key });
    }
    return nonOverlapping(found);
  }

  // How many units at the end of what is held to keep back because a wrapped secret may be growing there: none
  // unless the wrapped forms say so across a line break with at least CUT_PARTIAL_MIN units (fewer would hold back
  // the end of every line that ends in a unit some form begins with).
  private wrappedHold(): number {
    const open = (this.wrapped as PartialTracker).open();
    if (open === 0) return 0;
    // Walk back over `open` units that are not line breaks (nor the indentation after one).
    const text = this.shown + this.pending;
    const first = startOfLast(text, open);
    const crosses = BREAK_UNIT.test(text.slice(first));
    if (!crosses) return 0; // the plain tracker holds that back already
    if (open < CUT_PARTIAL_MIN) return 0;
    return this.pending.length - Math.max(0, first - this.shown.length);
  }

  private feedWrapped(piece: string): void {
    let out = '';
    for (let i = 0; i < piece.length; i++) {
      const unit = piece[i] as string;
      if (unit === '\r' || unit === '\n') this.afterBreak = true;
      else if (this.afterBreak && (unit === ' ' || unit === '\t' || unit === '>')) continue;
      else {
        this.afterBreak = false;
        out += unit;
      }
    }
    (this.wrapped as PartialTracker).feed(out);
  }

  private sync(): PartialTracker {
    if (this.tracker && this.revision === this.source.revision) return this.tracker;
    this.revision = this.source.revision;
    this.matcher = this.source.matcher();
    this.shownLimit = Math.max(0, ...this.matcher.forms.map((form) => form.text.length)) + SHOWN_SLACK;
    this.reset();
    const tracker = this.tracker as PartialTracker;
    tracker.feed(this.pending);
    this.feedWrapped(this.shown + this.pending);
    return tracker;
  }

  private reset(): void {
    const forms = (this.matcher as SecretMatcher).forms;
    this.tracker = new PartialTracker(forms);
    this.wrapped = new PartialTracker(forms);
    this.afterBreak = false;
  }
}

// Where the last `count` units of `text` that are not in a line break (nor the indentation or quote marks after one)
// begin; 0 when it holds fewer.
function startOfLast(text: string, count: number): number {
  let i = text.length;
  let seen = 0;
  while (i > 0) {
    const unit = text[i - 1] as string;
    if (unit === '\r' || unit === '\n') {
      i--;
      continue;
    }
    if (unit === ' ' || unit === '\t' || unit === '>') {
      let j = i - 1;
      while (j > 0 && (text[j - 1] === ' ' || text[j - 1] === '\t' || text[j - 1] === '>')) j--;
      if (j > 0 && (text[j - 1] === '\r' || text[j - 1] === '\n')) {
        i = j;
        continue;
      }
      // Blanks (and ">") inside a line are units like any other.
      if (seen + (i - j) >= count) return i - (count - seen);
      seen += i - j;
      i = j;
      continue;
    }
    i--;
    if (++seen === count) return i;
  }
  return 0;
}
