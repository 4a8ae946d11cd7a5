// Redaction of a stream that arrives in pieces (a command's live output): the end that could still become a
// secret is held back until it cannot, so no prefix of a secret is ever let out, one character at a time or not.
import type { SecretMatcher } from './secret-matcher';
import { replaceMatches } from './secret-matcher';
import { PartialTracker } from './secret-partials';

/** Where a stream gets the current secrets; `revision` changes whenever a secret is added. */
export interface SecretSource {
  readonly revision: number;
  matcher(): SecretMatcher;
}

/** One stream's redactor: push pieces, get back what is safe to show; end() lets out the rest, redacted. */
export class StreamRedactor {
  private pending = '';
  private revision = -1;
  private matcher: SecretMatcher | null = null;
  private tracker: PartialTracker | null = null;

  constructor(private readonly source: SecretSource) {}

  /** Adds a piece; returns the redacted text that can no longer be part of a secret ('' while all of it might). */
  push(piece: string): string {
    const tracker = this.sync();
    this.pending += piece;
    // A secret added before this piece is tracked over everything still held (sync), then over the piece.
    tracker.feed(piece);
    return this.release(Math.max(0, this.pending.length - tracker.open()));
  }

  /** Ends the stream: everything held, redacted. */
  end(): string {
    this.sync();
    const matcher = this.matcher as SecretMatcher;
    const out = replaceMatches(this.pending, matcher.find(this.pending));
    this.pending = '';
    this.tracker = new PartialTracker(matcher.forms);
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
    const matches = matcher.find(this.pending);
    // A whole secret that the cut would split is held whole (the cut moves to its start).
    const crossing = matches.find((match) => match.start < cut && match.end > cut);
    if (crossing) cut = crossing.start;
    const out = replaceMatches(
      this.pending.slice(0, cut),
      matches.filter((match) => match.end <= cut),
    );
    this.pending = this.pending.slice(cut);
    return out;
  }

  private sync(): PartialTracker {
    if (this.tracker && this.revision === this.source.revision) return this.tracker;
    this.revision = this.source.revision;
    this.matcher = this.source.matcher();
    this.tracker = new PartialTracker(this.matcher.forms);
    this.tracker.feed(this.pending);
    return this.tracker;
  }
}
