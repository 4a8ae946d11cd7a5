// Results a server sends for tool calls after they were cancelled (docs/dispatch.md, "MCP requests"). Over HTTP the
// server is not ours to stop: a cancel is only asked for, and the person was told the call stopped. A result that
// comes anyway shows the work went on and finished, so whatever the call did happened; the person must hear of it.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { performance } from 'node:perf_hooks';

/** At most this many open and cancelled calls are remembered; the oldest are forgotten first. */
const TRACKED = 256;

type Id = string | number;

/**
 * Watches a connected transport (the client has set its `onmessage`) for a result to a tool call the client had
 * cancelled, and reports how long after the cancel it came. An error answer is the server saying it stopped (the
 * Python SDK answers a cancel so), and is not reported.
 */
export function watchLateAnswers(transport: Transport, onLate: (afterMs: number) => void): void {
  const open = new Set<Id>();
  const cancelled = new Map<Id, number>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('method' in message) {
      if (message.method === 'tools/call' && 'id' in message) remember(open, message.id);
      else if (message.method === 'notifications/cancelled') {
        const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
        if ((typeof id === 'string' || typeof id === 'number') && open.delete(id)) {
          remember(cancelled, id, performance.now());
        }
      }
    }
    return send(message, options);
  };
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('id' in message && message.id !== undefined && !('method' in message)) {
      open.delete(message.id);
      const at = cancelled.get(message.id);
      if (at !== undefined) {
        cancelled.delete(message.id);
        if ('result' in message) onLate(performance.now() - at);
      }
    }
    receive?.(message, extra);
  };
}

function remember(into: Set<Id> | Map<Id, number>, id: Id, at = 0): void {
  if (into.size >= TRACKED) into.delete(into.keys().next().value as Id);
  if (into instanceof Set) into.add(id);
  else into.set(id, at);
}

/** The server's warning about calls it finished after they were cancelled, and the last one's delay. */
export function lateAnswerWarning(
  { count, afterMs }: { count: number; afterMs: number },
  endpoint: 'stdio' | 'http',
): string[] {
  if (count === 0) return [];
  const times = count === 1 ? '' : `, ${count} times so far`;
  const why =
    endpoint === 'http'
      ? 'over HTTP a cancel can only be asked for, not enforced'
      : 'its result came before it could be stopped';
  return [
    `finished a call after it was cancelled (its result came ${(afterMs / 1000).toFixed(1)} s after the cancel${times}): what the call did happened; ${why}`,
  ];
}
