// Runs work under a signal that fires on its limit or on cancel, and settles soon after even if the work ignores it.
import type { CancelReason } from './abort';
import { asAbortReason, TimeoutReason } from './abort';
import { CallAbort } from './call-abort';

/** How long aborted work gets to wind down (its process tree is killed within 500 ms) before it is abandoned. */
export const ABANDON_GRACE_MS = 700;

/** How limited work ended. */
export type LimitedOutcome<T> =
  | { kind: 'ok'; value: T }
  | { kind: 'error'; error: unknown }
  | { kind: 'timed_out'; reason: TimeoutReason }
  | { kind: 'cancelled'; reason: CancelReason };

// Work starts in a `then` of this settled promise unless it starts at once (see runWithLimit).
const STARTED = Promise.resolve();

/** Options of runWithLimit. */
export interface LimitOptions {
  /** Limit in ms; a non-finite value means none. */
  limitMs: number;
  /** Outer cancel (the turn's, or a task's). */
  signal?: AbortSignal;
  /** Called when aborted work did not settle within the grace and is left behind. */
  onAbandon?: (reason: TimeoutReason | CancelReason) => void;
  graceMs?: number;
  /**
   * Start the work at once rather than on the next microtask: for a foreground call, whose cancel can only come in a
   * later turn (its turn's signal was checked just before), so the MCP request is written a turn sooner.
   */
  startNow?: boolean;
}

/**
 * Runs `work(abort)`; once the abort fires, the outcome is timed_out/cancelled whatever the work does. The work reads
 * `abort.signal` for an AbortSignal (made then), or watches `abort` without one.
 *
 * Every call of every tool passes through here, so it is written for the hot path (docs/dispatch.md): one promise for
 * the outcome, no AbortSignal unless the work asks for one, no listener on its own abort (only this function fires
 * it: the timer or the outer cancel, and both go through `stop`), and work that settles first clears the timer and
 * the outer listener at once.
 */
export function runWithLimit<T>(
  work: (abort: CallAbort) => Promise<T> | T,
  options: LimitOptions,
): Promise<LimitedOutcome<T>> {
  return new Promise<LimitedOutcome<T>>((resolve) => {
    const abort = new CallAbort();
    let reason: TimeoutReason | CancelReason | null = null;
    let settled = false;
    let finished = false;
    let timer: NodeJS.Timeout | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    let unlink = (): void => {};

    const finish = (outcome: LimitedOutcome<T>): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      unlink();
      resolve(outcome);
    };
    const stopped = (why: TimeoutReason | CancelReason): LimitedOutcome<T> =>
      why instanceof TimeoutReason ? { kind: 'timed_out', reason: why } : { kind: 'cancelled', reason: why };
    // The work's own end: its result, unless the signal fired first (then it only ends the grace early).
    const settle = (outcome: LimitedOutcome<T>): void => {
      settled = true;
      finish(reason ? stopped(reason) : outcome);
    };
    const stop = (why: TimeoutReason | CancelReason): void => {
      if (reason || finished) return;
      reason = why;
      abort.abort(why);
      if (settled) {
        finish(stopped(why));
        return;
      }
      // Give the work its grace to stop (kill its process tree), then settle regardless.
      graceTimer = setTimeout(() => {
        try {
          if (!settled) options.onAbandon?.(why);
        } catch {
          // Only a report: one that throws must neither leave the call unsettled nor escape from a timer.
        }
        finish(stopped(why));
      }, options.graceMs ?? ABANDON_GRACE_MS);
    };

    const parent = options.signal;
    if (parent?.aborted) stop(asAbortReason(parent.reason));
    else if (parent) {
      const forward = (): void => stop(asAbortReason(parent.reason));
      parent.addEventListener('abort', forward, { once: true });
      unlink = () => parent.removeEventListener('abort', forward);
    }
    if (!reason && Number.isFinite(options.limitMs)) {
      timer = setTimeout(() => stop(new TimeoutReason(options.limitMs)), Math.max(0, options.limitMs));
    }
    const start = (): void => {
      // Work aborted before it began is never started.
      if (reason) {
        settle({ kind: 'error', error: reason });
        return;
      }
      let result: Promise<T> | T;
      try {
        result = work(abort);
      } catch (error) {
        settle({ kind: 'error', error });
        return;
      }
      Promise.resolve(result).then(
        (value) => settle({ kind: 'ok', value }),
        (error: unknown) => settle({ kind: 'error', error }),
      );
    };
    // By default started on the next microtask, as an async function would be, so a cancel in the same turn (a task
    // started and cancelled at once) comes before it. A resolved promise's then, not queueMicrotask: Node wraps each
    // queueMicrotask callback in an AsyncResource (~5 µs a call). `startNow`: at once, one turn of the queue sooner.
    if (options.startNow) start();
    else void STARTED.then(start);
  });
}
