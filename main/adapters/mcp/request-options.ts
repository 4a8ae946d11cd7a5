// The options every MCP request gets (docs/dispatch.md, "MCP requests"): the dispatch budget instead of the SDK's 60 s default, the
// call's signal (its abort sends notifications/cancelled), progress, and a total cap at the limit.
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { performance } from 'node:perf_hooks';
import type { ToolContext } from '../../../tools/sdk/types';
import { callAbortOf, signalOver } from '../../core/call-abort';
import { clipNoted } from '../../core/clip-chars';

/** setTimeout's largest delay; a larger one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * How far past the dispatch deadline the SDK's own timers are set. They are a backstop: the dispatcher's
 * limit fires first and reports `timed_out after N s`, then aborts the signal, which cancels the request.
 */
export const SDK_TIMER_SLACK_MS = 1000;

/** The longest progress message of a server passed on (characters); the rest is cut with a mark. */
export const PROGRESS_MESSAGE_CHARS = 2000;
/** At most one progress update per this many ms is passed on; the others only keep the SDK's timer alive. */
export const PROGRESS_INTERVAL_MS = 100;

/** Request options for one tool call under `ctx` (its deadline, signal and progress callback). */
export function callOptions(
  ctx: Pick<ToolContext, 'deadline' | 'signal' | 'progress'>,
  now: number = Date.now(),
): RequestOptions {
  const budget =
    ctx.deadline === null
      ? MAX_TIMER_MS
      : Math.min(MAX_TIMER_MS, Math.max(1, ctx.deadline - now) + SDK_TIMER_SLACK_MS);
  // A server's progress is bounded (docs/security.md, "A hostile MCP server"): each update becomes an event for every
  // window, so a flood of them, or one of megabytes, would flood the UI. The first of each interval is passed on,
  // clipped; the rest are dropped (no timer: nothing may be emitted after the call ends). The SDK has already
  // restarted its timer for each one before this callback runs.
  let passedAt = -Infinity;
  // A dispatched call's cancel is watched without making an AbortSignal (docs/dispatch.md, "The hot path"); the SDK
  // reads only what signalOver gives (Protocol.request: aborted, throwIfAborted, addEventListener('abort')).
  const watch = callAbortOf(ctx);
  const options: RequestOptions = {
    signal: watch ? signalOver(watch) : ctx.signal,
    timeout: budget,
    // Progress resets the SDK's per-request timer, but never past the total, which is the call's limit.
    resetTimeoutOnProgress: true,
    onprogress: (progress) => {
      const now = performance.now();
      if (now - passedAt < PROGRESS_INTERVAL_MS) return;
      passedAt = now;
      const update: Parameters<ToolContext['progress']>[0] = { progress: progress.progress };
      if (progress.total !== undefined) update.total = progress.total;
      if (progress.message !== undefined)
        update.message = clipNoted(String(progress.message), PROGRESS_MESSAGE_CHARS);
      ctx.progress(update);
    },
  };
  if (ctx.deadline !== null) options.maxTotalTimeout = budget;
  return options;
}

/** Options for requests outside a call (initialize, tools/list): a fixed budget and an optional signal. */
export function plainOptions(timeoutMs: number, signal?: AbortSignal): RequestOptions {
  const options: RequestOptions = { timeout: Math.min(MAX_TIMER_MS, Math.max(1, timeoutMs)) };
  if (signal) options.signal = signal;
  return options;
}
