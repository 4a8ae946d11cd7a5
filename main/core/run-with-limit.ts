// Runs work under a signal that fires on its limit or on cancel, and settles soon after even if the work ignores it.
import type { CancelReason } from './abort';
import { linkSignal, TimeoutReason } from './abort';

/** How long aborted work gets to wind down (its process tree is killed within 500 ms) before it is abandoned. */
export const ABANDON_GRACE_MS = 700;

/** How limited work ended. */
export type LimitedOutcome<T> =
  | { kind: 'ok'; value: T }
  | { kind: 'error'; error: unknown }
  | { kind: 'timed_out'; reason: TimeoutReason }
  | { kind: 'cancelled'; reason: CancelReason };

/** Options of runWithLimit. */
export interface LimitOptions {
  /** Limit in ms; a non-finite value means none. */
  limitMs: number;
  /** Outer cancel (the turn's, or a task's). */
  signal?: AbortSignal;
  /** Called when aborted work did not settle within the grace and is left behind. */
  onAbandon?: (reason: TimeoutReason | CancelReason) => void;
  graceMs?: number;
}

/** Runs `work(signal)`; once the signal fires, the outcome is timed_out/cancelled whatever the work does. */
export async function runWithLimit<T>(
  work: (signal: AbortSignal) => Promise<T> | T,
  options: LimitOptions,
): Promise<LimitedOutcome<T>> {
  const controller = new AbortController();
  const unlink = linkSignal(options.signal, controller);
  const timer = Number.isFinite(options.limitMs)
    ? setTimeout(() => controller.abort(new TimeoutReason(options.limitMs)), Math.max(0, options.limitMs))
    : undefined;
  let settled = false;
  const workPromise = Promise.resolve()
    .then(() => {
      // Work aborted before it began (cancel right after start) is never started.
      if (controller.signal.aborted) throw controller.signal.reason;
      return work(controller.signal);
    })
    .then(
      (value): LimitedOutcome<T> => ({ kind: 'ok', value }),
      (error: unknown): LimitedOutcome<T> => ({ kind: 'error', error }),
    )
    .finally(() => {
      settled = true;
    });
  const aborted = new Promise<void>((resolve) => {
    if (controller.signal.aborted) resolve();
    else controller.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  try {
    const first = await Promise.race([workPromise, aborted.then(() => null)]);
    if (first && !controller.signal.aborted) return first;
    const reason = controller.signal.reason as TimeoutReason | CancelReason;
    // Give the work its grace to stop (kill its process tree), then settle regardless.
    const graceMs = options.graceMs ?? ABANDON_GRACE_MS;
    let graceTimer: NodeJS.Timeout | undefined;
    await Promise.race([workPromise, new Promise<void>((r) => (graceTimer = setTimeout(r, graceMs)))]);
    clearTimeout(graceTimer);
    if (!settled) options.onAbandon?.(reason);
    return reason instanceof TimeoutReason ? { kind: 'timed_out', reason } : { kind: 'cancelled', reason };
  } finally {
    clearTimeout(timer);
    unlink();
  }
}
