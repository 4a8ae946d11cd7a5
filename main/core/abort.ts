// Abort reasons: a timeout and a cancel are both just reasons on an AbortSignal, told apart here.

/** The reason a signal fires when a call or task reaches its limit. */
export class TimeoutReason extends Error {
  constructor(readonly limitMs: number) {
    super(`timed out after ${formatSeconds(limitMs)}`);
    this.name = 'TimeoutError';
  }
}

/** The reason a signal fires when the user (or quitting) cancels. */
export class CancelReason extends Error {
  constructor(message = 'cancelled by the user') {
    super(message);
    this.name = 'AbortError';
  }
}

/** `900 s` style duration for messages the model and the user read. */
export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number(seconds.toFixed(3))} s`;
}

/** Keeps our typed reasons, turns anything else into a CancelReason. */
export function asAbortReason(reason: unknown): TimeoutReason | CancelReason {
  if (reason instanceof TimeoutReason || reason instanceof CancelReason) return reason;
  // A bare controller.abort() gives a DOMException "This operation was aborted": say who stopped it instead.
  if (reason === undefined || (reason instanceof Error && reason.name === 'AbortError'))
    return new CancelReason();
  return new CancelReason(
    reason instanceof Error && reason.message ? `cancelled: ${reason.message}` : 'cancelled',
  );
}
