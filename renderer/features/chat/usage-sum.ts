// Sums the rounds' token usage and cost per turn and per chat. A count a round did not report stays unknown in the
// sum (unknown is not 0), and a cost is only given when every round had one.
import type { MessageView, RoundUsageView } from '../../../preload/contract';

type AssistantMessage = Extract<MessageView, { kind: 'assistant' }>;

/** The usage of several rounds; a count is null when some round did not report it. */
export interface UsageTotal {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  /** US dollars; null when some round has no cost. */
  costUsd: number | null;
  /** Models of rounds with both counts known but no price in the table. */
  unpriced: string[];
  /** Some round has no cost because its input or output count is unknown. */
  costNeedsCounts: boolean;
  /** Rounds that ended without reporting usage (their tokens are in none of the counts). */
  unreported: number;
}

type CountField = 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens';
const COUNT_FIELDS: CountField[] = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'];

/**
 * The sum of these rounds, or null when none reported usage. Rounds from index `pendingFrom` on belong to a running
 * turn and may still get their usage, so one without it is not counted as unreported yet.
 */
export function sumRounds(
  rounds: readonly AssistantMessage[],
  pendingFrom = rounds.length,
): UsageTotal | null {
  const reported = rounds.map((m) => m.usage).filter((u): u is RoundUsageView => u !== null);
  if (reported.length === 0) return null;
  const total: UsageTotal = {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: 0,
    unpriced: [],
    costNeedsCounts: false,
    unreported: rounds.filter((m, i) => i < pendingFrom && m.usage === null && m.status !== 'streaming')
      .length,
  };
  for (const round of reported) {
    for (const field of COUNT_FIELDS) {
      const value = round.usage[field];
      const sum = total[field];
      total[field] = sum === null || value === null ? null : sum + value;
    }
    if (round.costUsd !== null && total.costUsd !== null) total.costUsd += round.costUsd;
    if (round.costUsd !== null) continue;
    total.costUsd = null;
    if (round.usage.inputTokens === null || round.usage.outputTokens === null) total.costNeedsCounts = true;
    else if (!total.unpriced.includes(round.model)) total.unpriced.push(round.model);
  }
  return total;
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
