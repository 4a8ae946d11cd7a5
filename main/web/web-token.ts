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
