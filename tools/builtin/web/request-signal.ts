// A request's own time limit on top of the call's signal, telling apart "our timeout" from "the call was stopped".
import { ToolError } from '../../sdk/types';

/** The signal a request runs under: fires on the call's signal or after `timeoutMs`. */
export interface RequestSignal {
  signal: AbortSignal;
  /** Turns whatever a request threw into the error to report: the call's abort reason, a timeout, or itself. */
  failure(error: unknown): unknown;
  /** Stops the timer. */
  clear(): void;
}

/** Combines the call's signal with a timer of `timeoutMs` (none when not finite); `what` names the parameter. */
export function requestSignal(parent: AbortSignal, timeoutMs: number, what: string): RequestSignal {
  const controller = new AbortController();
  let timedOut = false;
  const forward = () => controller.abort(parent.reason);
  if (parent.aborted) forward();
  else parent.addEventListener('abort', forward, { once: true });
  const timer = Number.isFinite(timeoutMs)
    ? setTimeout(() => {
        timedOut = true;
        controller.abort(timeoutError(timeoutMs, what));
      }, timeoutMs)
    : undefined;
  return {
    signal: controller.signal,
    failure(error) {
      if (parent.aborted) return parent.reason;
      if (timedOut) return timeoutError(timeoutMs, what);
      return error;
    },
    clear() {
      clearTimeout(timer);
      parent.removeEventListener('abort', forward);
    },
  };
}

function timeoutError(timeoutMs: number, what: string): ToolError {
  return new ToolError(
    'timed_out',
    `the request timed out after ${Number((timeoutMs / 1000).toFixed(3))} s (${what})`,
    {
      timeoutMs,
    },
  );
}
