// The browser-mode token: random, in the printed URL, compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh 256-bit token, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether `given` equals `expected`, in time that does not depend on where they differ (or on their lengths). */
export function tokenMatches(given: string | null | undefined, expected: string): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  // Hashing first gives equal-length buffers, which timingSafeEqual needs, without leaking the length.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** How long a launch link works: long enough for a browser to start, short enough to be of no use later. */
export const LAUNCH_LINK_MS = 2 * 60_000;

/**
 * A one-time launch code for the URL handed to a browser opener (`agenvoy web --open`): the opener's command line is
 * readable by other local users, so it carries this code instead of the token. The first page load that shows it,
 * within LAUNCH_LINK_MS, is sent on to the tokened URL; the code then works no more (docs/security.md).
 */
export class LaunchCode {
  readonly code = newToken();
  private used = false;
  private readonly expires: number;

  constructor(
    lifetimeMs = LAUNCH_LINK_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.expires = now() + lifetimeMs;
  }

  /** True once, for the right code within its lifetime. */
  take(given: string | null): boolean {
    if (this.used || this.now() > this.expires || !tokenMatches(given, this.code)) return false;
    this.used = true;
    return true;
  }
}
