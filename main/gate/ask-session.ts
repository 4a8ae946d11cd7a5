// One batch in front of the user: answers arrive item by item, their effects apply at once, and the batch can time out.
import { grantScope } from './call-site';
import type { Assessed, ConfirmGate } from './confirm-gate';
import type { GateEvent } from './gate-events';
import type { ApprovalPrompter, PromptChoice, PromptItem, PromptSession } from './prompter-port';
import type { Verdict } from './verdicts';
import { cancelledVerdict, personAllowed, promptFailed, timedOut } from './verdicts';

/** One call waiting for the user. */
export interface PendingAsk {
  item: PromptItem;
  call: Assessed;
  settle: (verdict: Verdict) => void;
  isSettled: () => boolean;
}

/** What a session needs from its gate. */
export interface AskOptions {
  gate: ConfirmGate;
  prompter: ApprovalPrompter;
  chatId: string;
  asks: PendingAsk[];
  timeoutMs: number | null;
  /** The turn's signal: cancelling the turn closes the question. */
  signal: AbortSignal;
  emit: (event: GateEvent) => void;
}

type Closed = { kind: 'timed_out' } | { kind: 'cancelled' };

/** Presents the pending calls to the prompter and settles every one of them, whatever happens. */
export async function askUser(options: AskOptions): Promise<void> {
  const { asks, chatId, prompter, timeoutMs } = options;
  const controller = new AbortController();
  let closed: Closed | null = null;
  let allAnswered = () => {};
  // A prompter that keeps its dialog open after the last answer must not hold the turn.
  const answered = new Promise<void>((resolve) => (allAnswered = resolve));
  const close = (why: Closed) => {
    if (closed) return;
    closed = why;
    controller.abort(
      new Error(why.kind === 'timed_out' ? 'the approval timed out' : 'the turn was cancelled'),
    );
  };
  const timer = timeoutMs === null ? null : setTimeout(() => close({ kind: 'timed_out' }), timeoutMs);
  const onCancel = () => close({ kind: 'cancelled' });
  options.signal.addEventListener('abort', onCancel, { once: true });
  const session: PromptSession = {
    chatId,
    items: asks.map((ask) => ask.item),
    signal: controller.signal,
    timeoutMs,
    isPending: (index) => !closed && asks[index] !== undefined && !(asks[index] as PendingAsk).isSettled(),
    answer: async (index, choice) => {
      if (!session.isPending(index)) return;
      await applyChoice(options, index, choice);
      if (asks.every((ask) => ask.isSettled())) allAnswered();
    },
  };
  options.emit({
    type: 'gate.asking',
    chatId,
    callIds: asks.map((ask) => ask.call.request.callId),
    timeoutMs,
  });
  let failure: string | null = null;
  try {
    await Promise.race([prompter.prompt(session), aborted(controller.signal), answered]);
  } catch (error) {
    if (!closed)
      failure = `the approval prompt failed: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    if (timer) clearTimeout(timer);
    options.signal.removeEventListener('abort', onCancel);
  }
  const left = asks.filter((ask) => !ask.isSettled());
  const ending = closed as Closed | null;
  if (ending?.kind === 'timed_out' && timeoutMs !== null && left.length > 0) {
    left.forEach((ask) => ask.settle(timedOut(timeoutMs)));
    options.emit({
      type: 'gate.timed_out',
      chatId,
      callIds: left.map((ask) => ask.call.request.callId),
      afterMs: timeoutMs,
    });
    prompter.notify({
      kind: 'timed_out',
      chatId,
      tools: left.map((ask) => ask.call.request.tool),
      afterMs: timeoutMs,
    });
  } else {
    const verdict =
      ending?.kind === 'cancelled'
        ? cancelledVerdict()
        : promptFailed(failure ?? 'the prompt ended without an answer');
    left.forEach((ask) => ask.settle(verdict));
  }
}

async function applyChoice(options: AskOptions, index: number, choice: PromptChoice): Promise<void> {
  const { gate, asks } = options;
  const ask = asks[index] as PendingAsk;
  const { request } = ask.call;
  const { item } = ask;
  switch (choice.kind) {
    case 'allow_once':
      ask.settle(personAllowed('once'));
      return;
    case 'allow_chat':
      if (!item.offers.chat) return ask.settle(personAllowed('once'));
      // A call with a URL is granted for its site only, a command line for its program (grantScope), so the grant
      // cannot carry data anywhere else.
      gate.grants.grant(
        request.chatId,
        request.tool,
        request.definitionHash,
        grantScope(request.args, ask.call.canonical),
      );
      ask.settle(personAllowed('chat'));
      return settleCovered(options);
    case 'allow_always': {
      if (!item.offers.always) return ask.settle(personAllowed('once'));
      const ruleId = await saveRule(
        options,
        ask,
        'allow',
        choice.pattern === undefined ? item.suggestedPattern : choice.pattern,
      );
      ask.settle(personAllowed(ruleId ? 'always' : 'once', ruleId));
      return settleCovered(options);
    }
    case 'deny_always': {
      const ruleId = await saveRule(
        options,
        ask,
        'deny',
        choice.pattern === undefined ? item.suggestedPattern : choice.pattern,
      );
      const because = choice.reason ? `: ${choice.reason}` : '';
      ask.settle({
        decision: {
          kind: 'deny',
          scope: ruleId ? 'always' : 'once',
          ...(choice.reason ? { reason: choice.reason } : {}),
          message: `denied by the user, who always denies this call${ruleId ? ` (rule ${ruleId})` : ''}${because}`,
        },
        by: 'user',
        ruleId,
      });
      return settleCovered(options);
    }
    case 'deny':
      ask.settle({
        decision: choice.reason
          ? { kind: 'deny', scope: 'once', reason: choice.reason }
          : { kind: 'deny', scope: 'once' },
        by: 'user',
        ruleId: null,
      });
      return;
    case 'stop':
      for (const other of asks) other.settle({ decision: { kind: 'stop' }, by: 'user', ruleId: null });
      return;
  }
}

async function saveRule(
  options: AskOptions,
  ask: PendingAsk,
  effect: 'allow' | 'deny',
  pattern: string | null,
): Promise<string | null> {
  const { request } = ask.call;
  try {
    const rule = await options.gate.rules.add({
      tool: request.tool,
      pattern,
      effect,
      definitions: { [request.tool]: request.definitionHash },
      // What the person saw this call send is what the rule may send again (secret-references.ts).
      ...(effect === 'allow' && ask.call.secrets.length > 0 ? { secrets: ask.call.secrets } : {}),
    });
    options.prompter.notify({
      kind: 'rule_saved',
      ruleId: rule.id,
      tool: rule.tool,
      pattern: rule.pattern,
      effect,
    });
    return rule.id;
  } catch (error) {
    options.prompter.notify({
      kind: 'rule_not_saved',
      tool: request.tool,
      message: error instanceof Error ? error.message : String(error),
    });
    return null;
  }
}

// A new grant or rule may cover other calls of the same batch: they are settled without another question.
async function settleCovered(options: AskOptions): Promise<void> {
  const ruleSet = await options.gate.rules.current();
  for (const ask of options.asks) {
    if (ask.isSettled()) continue;
    const standing = await options.gate.standing(ask.call, ruleSet);
    if (standing.kind !== 'decided') continue;
    ask.settle(standing.verdict);
    const allowed = standing.verdict.decision.kind === 'allow';
    options.prompter.notify({
      kind: 'settled',
      chatId: options.chatId,
      tool: ask.call.request.tool,
      by: standing.verdict.by === 'chat_grant' ? 'chat_grant' : 'rule',
      allowed,
    });
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
