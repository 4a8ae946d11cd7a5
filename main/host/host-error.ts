// Errors as data at the host boundary: handlers throw HostError with a contract code; the boundary turns it into a Result.
import type { ApiError, ErrorCode, Result } from '../../preload/contract';

/** A failure a handler reports to the renderer with a stable code. */
export class HostError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'HostError';
  }
}

/** A successful Result. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** A failed Result. */
export function fail(code: ErrorCode, message: string): { ok: false; error: ApiError } {
  return { ok: false, error: { code, message } };
}

/** Turns anything a handler threw into a failed Result; only HostError keeps its code, the rest is `internal`. */
export function toFailure(error: unknown, redact: (text: string) => string): { ok: false; error: ApiError } {
  if (error instanceof HostError) return fail(error.code, redact(error.message));
  const message = error instanceof Error ? error.message : String(error);
  return fail('internal', redact(message));
}
