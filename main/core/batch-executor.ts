// The three-pass batch executor (docs/agent-loop.md, "The three passes"): prepare and approve in call order, run (background, fan-out, serial), commit in order.
import type { CallOutcome } from './outcome';
import type { CallScope, Dispatcher } from './dispatcher';
import type { CredentialHealer } from './heal-budget';
import { HealBudget, MAX_HEAL_ROUNDS } from './heal-budget';
import type { CallRequest, PreparedCall } from './prepare-call';
import type { HealPort } from '../../tools/sdk/types';

/** How many concurrent calls run at once. */
export const FAN_OUT_LIMIT = 8;

/** One call's result, in the batch's original order. */
export interface BatchResult {
  callId: string;
  /** The resolved tool name (after cleanup and run_tool unwrap). */
  tool: string;
  outcome: CallOutcome;
}

/** A turn's scope for batches: the call scope plus the turn's heal budget and a way to stop it. */
export interface BatchScope extends CallScope {
  heal?: HealPort;
  /** Called when the user picks "stop the turn" in an approval. */
  stopTurn?: () => void;
}

type ReadyCall = Extract<PreparedCall, { kind: 'ready' }>;

/** Runs one model message's tool calls. */
export class BatchExecutor {
  private healing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dispatcher: Dispatcher,
    private readonly healer: CredentialHealer | null = null,
  ) {}

  /** Runs the batch; results come back in call order whatever order they finished in. */
  async run(calls: CallRequest[], scope: BatchScope): Promise<BatchResult[]> {
    const heal = scope.heal ?? new HealBudget();
    scope = { ...scope, services: { ...scope.services, heal } };
    await this.dispatcher.ready();
    // Pass 1: serial, in call order, one gate request for the whole batch.
    const prepared = calls.map((call) => this.dispatcher.prepare(call, scope));
    const outcomes: Array<CallOutcome | null> = prepared.map((p) => (p.kind === 'done' ? p.outcome : null));
    const approval = await this.dispatcher.approve(prepared, scope);
    approval.outcomes.forEach((denied, i) => {
      if (denied) outcomes[i] = denied;
    });
    if (approval.stop) scope.stopTurn?.();
    for (const [i, p] of prepared.entries()) {
      if (p.kind === 'done' || outcomes[i]) {
        outcomes[i] = this.dispatcher.finish(p, scope, outcomes[i] as CallOutcome);
      } else if (approval.stop) {
        outcomes[i] = this.dispatcher.finish(p, scope, {
          outcome: 'cancelled',
          message: 'cancelled: the user stopped the turn',
          durationMs: 0,
        });
      }
    }
    // Pass 2: background calls start, concurrent ones fan out, the rest run one at a time alongside.
    const ready = prepared
      .map((p, index) => ({ p, index }))
      .filter(
        (x): x is { p: ReadyCall; index: number } => x.p.kind === 'ready' && outcomes[x.index] === null,
      );
    // Every call after the first to start is run after others of the batch did: its standing approval is decided
    // again first (Dispatcher.execute, `reconfirm`).
    let started = 0;
    const run = async ({ p, index }: { p: ReadyCall; index: number }) => {
      outcomes[index] = await this.runOne(p, scope, heal, started++ > 0);
    };
    const background = ready.filter((x) => x.p.tool.spec.flags.background);
    const concurrent = ready.filter((x) => !x.p.tool.spec.flags.background && x.p.tool.spec.flags.concurrent);
    const serial = ready.filter((x) => !x.p.tool.spec.flags.background && !x.p.tool.spec.flags.concurrent);
    await Promise.all(background.map(run));
    await Promise.all([
      fanOut(concurrent, FAN_OUT_LIMIT, run),
      (async () => {
        for (const item of serial) await run(item);
      })(),
    ]);
    // Pass 3: commit in the original order.
    return prepared.map((p, i) => ({ callId: p.id, tool: p.name, outcome: outcomes[i] as CallOutcome }));
  }

  private async runOne(
    call: ReadyCall,
    scope: BatchScope,
    heal: HealPort,
    reconfirm: boolean,
  ): Promise<CallOutcome> {
    if (scope.signal?.aborted) {
      return this.dispatcher.finish(call, scope, {
        outcome: 'cancelled',
        message: 'cancelled: the turn was stopped',
        durationMs: 0,
      });
    }
    let outcome = await this.dispatcher.execute(call, scope, reconfirm);
    while (outcome.outcome === 'error' && outcome.credential && this.healer && !scope.signal?.aborted) {
      const credential = outcome.credential;
      if (!heal.take(call.name)) {
        const note = ` (store_secret was already asked ${MAX_HEAL_ROUNDS} times for ${call.name} this turn; the failure stands)`;
        return { ...outcome, message: outcome.message + note };
      }
      const stored = await this.serialHeal(credential.key, credential.reason, call.name, scope);
      if (!stored)
        return { ...outcome, message: `${outcome.message} (the user declined to store ${credential.key})` };
      outcome = await this.dispatcher.execute(call, scope, true);
    }
    return outcome;
  }

  // One prompt at a time, even when concurrent calls fail together.
  private serialHeal(key: string, reason: string, tool: string, scope: BatchScope): Promise<boolean> {
    const healer = this.healer as CredentialHealer;
    const next = this.healing.then(() =>
      healer.heal({ key, reason, tool, chatId: scope.chatId }, scope.signal ?? new AbortController().signal),
    );
    this.healing = next.catch(() => undefined);
    return next.catch(() => false);
  }
}

/** Runs `work` over `items` with at most `limit` in flight. */
export async function fanOut<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  });
  await Promise.all(lanes);
}
