// Sums the rounds' token usage and cost per turn and per chat. A count no round reported stays unknown (unknown is
// not 0), one only some rounds reported is a lower bound, and a cost is only given when every round had one.
import type { MessageView, RoundUsageView } from '../../../preload/contract';

type AssistantMessage = Extract<MessageView, { kind: 'assistant' }>;

/** A token count of the rounds that reported usage. */
export type CountField = 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens';
const COUNT_FIELDS: CountField[] = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'];

/** The usage of several rounds. */
export interface UsageTotal extends Record<CountField, number | null> {
  /** Counts only some of the rounds reported: the figure is at least this much. */
  partial: CountField[];
  /** US dollars; null when some round has no cost. */
  costUsd: number | null;
  /** Models of rounds with both counts known but no price in the table. */
  unpriced: string[];
  /** Some round has no cost because its input or output count is unknown. */
  costNeedsCounts: boolean;
  /** Rounds that ended without reporting any count (a stopped round; history from before usage was recorded). */
  unreported: number;
}

/**
 * The sum of these rounds, or null when none reported a count. Rounds from index `pendingFrom` on belong to a running
 * turn and may still get their usage, so one without it is not counted as unreported yet.
 */
export function sumRounds(
  rounds: readonly AssistantMessage[],
  pendingFrom = rounds.length,
): UsageTotal | null {
  const reported = rounds.flatMap((m) => (m.usage && hasCounts(m.usage) ? [m.usage] : []));
  if (reported.length === 0) return null;
  const total: UsageTotal = {
    inputTokens: null,
    outputTokens: null,
    cacheReadTokens: null,
    cacheWriteTokens: null,
    partial: [],
    costUsd: 0,
    unpriced: [],
    costNeedsCounts: false,
    unreported: rounds.filter((m, i) =>
      m.usage ? !hasCounts(m.usage) : i < pendingFrom && m.status !== 'streaming',
    ).length,
  };
  for (const field of COUNT_FIELDS) {
    const known = reported.flatMap((r) => (r.usage[field] === null ? [] : [r.usage[field]]));
    if (known.length > 0) total[field] = known.reduce((a, b) => a + b, 0);
    if (known.length > 0 && known.length < reported.length) total.partial.push(field);
  }
  for (const round of reported) {
    if (round.costUsd !== null) {
      if (total.costUsd !== null) total.costUsd += round.costUsd;
      continue;
    }
    total.costUsd = null;
    if (round.usage.inputTokens === null || round.usage.outputTokens === null) total.costNeedsCounts = true;
    else if (!total.unpriced.includes(round.model)) total.unpriced.push(round.model);
  }
  return total;
}

// A round stopped before the server said anything has every count null: it reported nothing.
function hasCounts(round: RoundUsageView): boolean {
  return COUNT_FIELDS.some((field) => round.usage[field] !== null);
}

/**
 * Each turn's usage (a user message and the rounds up to the next user message), keyed by the id of the turn's last
 * assistant message, where it is shown. `running`: the chat's last turn is still in flight.
 */
export function turnUsages(
  messages: readonly MessageView[],
  running: boolean,
): ReadonlyMap<number, UsageTotal> {
  const cached = turnCache.get(messages);
  if (cached?.running === running) return cached.value;
  const value = new Map<number, UsageTotal>();
  let turn: AssistantMessage[] = [];
  const close = (last: boolean) => {
    const end = turn.at(-1);
    const total = end ? sumRounds(turn, last && running ? 0 : turn.length) : null;
    if (end && total) value.set(end.id, total);
    turn = [];
  };
  for (const message of messages) {
    if (message.kind === 'user') close(false);
    else if (message.kind === 'assistant') turn.push(message);
  }
  close(true);
  turnCache.set(messages, { running, value });
  return value;
}

/** The whole chat's usage (every round of the messages shown), or null when no round reported any. */
export function chatUsage(messages: readonly MessageView[], running: boolean): UsageTotal | null {
  const cached = chatCache.get(messages);
  if (cached?.running === running) return cached.value;
  const rounds: AssistantMessage[] = [];
  let lastTurnFrom = 0;
  for (const message of messages) {
    if (message.kind === 'user') lastTurnFrom = rounds.length;
    else if (message.kind === 'assistant') rounds.push(message);
  }
  const value = sumRounds(rounds, running ? lastTurnFrom : rounds.length);
  chatCache.set(messages, { running, value });
  return value;
}

// Selectors run on every store change; the message array only changes when a message does.
const turnCache = new WeakMap<readonly MessageView[], { running: boolean; value: Map<number, UsageTotal> }>();
const chatCache = new WeakMap<readonly MessageView[], { running: boolean; value: UsageTotal | null }>();
