// The "still running" beat of a long script call (docs/dispatch.md, "Progress and heartbeats"): a log line and a progress update.
import type { ProgressUpdate, ToolLogger } from '../../../tools/sdk/types';

/** How often a running script reports: every 30 s. */
export const HEARTBEAT_MS = 30_000;

/** What a heartbeat reports to. */
export interface HeartbeatOptions {
  /** The registered tool name. */
  name: string;
  /** The tool's limit, for the `/<Z>s` part. */
  limitMs: number;
  intervalMs?: number;
  log: ToolLogger;
  progress: (update: ProgressUpdate) => void;
}

/** `30s/900s`: elapsed and limit in whole seconds. */
export function elapsedText(elapsedMs: number, limitMs: number): string {
  const limit = Number.isFinite(limitMs) ? `${Math.round(limitMs / 1000)}s` : 'none';
  // Node timers never fire early, so flooring shows 30s at the 30 s beat, never 29s.
  return `${Math.floor(elapsedMs / 1000)}s/${limit}`;
}

/** Starts beating every `intervalMs`: `INFO running name=<name> elapsed=<Y>s/<Z>s`; returns the stop. */
export function startHeartbeat(options: HeartbeatOptions): () => void {
  const started = Date.now();
  const timer = setInterval(() => {
    const elapsed = elapsedText(Date.now() - started, options.limitMs);
    // A throwing listener inside a timer would take the whole process down.
    try {
      // Exactly the documented line: no call fields of the tool's logger after it.
      options.log.info('running', { name: options.name, elapsed }, { context: false });
      options.progress({ message: `running ${elapsed}` });
    } catch (error) {
      console.error('heartbeat listener failed:', error);
    }
  }, options.intervalMs ?? HEARTBEAT_MS);
  // A beat must never keep a quitting process alive.
  timer.unref();
  return () => clearInterval(timer);
}
