// The approval step's pieces around the gate (docs/security.md): arguments pinned before the gate sees a call, how
// a call would run (sandboxed or not), and what an allow or a denial becomes for the handler and the model.
import type { CallApproval } from '../../tools/sdk/types';
import type { CallScope } from './call-types';
import type { ApprovalDecision, CallSandbox } from './gate-port';
import type { CallOutcome } from './outcome';
import { thrownOutcome } from './outcome';
import type { PreparedCall } from './prepare-call';
import type { SandboxState } from './sandbox-port';

type ReadyCall = Extract<PreparedCall, { kind: 'ready' }>;

/** The approval of a call nobody was asked about (an alwaysAllow tool). */
export const NOT_NEEDED: CallApproval = { by: 'not_needed', ruleId: null, ruleOrigin: null };

/**
 * Runs each ready call's pinArguments (tools/sdk/types.ts) before the gate sees the call: the gate shows, and the
 * handler gets, the pinned arguments. A failure is that call's outcome (null: none); the others go on. Calls that
 * already have an outcome in `outcomes` are skipped.
 */
export async function pinAll(
  calls: PreparedCall[],
  scope: CallScope,
  outcomes: Array<CallOutcome | null> = calls.map(() => null),
): Promise<Array<CallOutcome | null>> {
  const signal = scope.signal ?? new AbortController().signal;
  for (const [index, call] of calls.entries()) {
    const pin = call.kind === 'ready' && outcomes[index] === null ? call.tool.spec.pinArguments : undefined;
    if (call.kind !== 'ready' || !pin) continue;
    const startedAt = Date.now();
    try {
      call.args = await pin(call.args, { workspace: scope.workspace, signal });
    } catch (error) {
      delete call.approval;
      outcomes[index] = thrownOutcome(error, Date.now() - startedAt);
    }
  }
  return outcomes;
}

/** How an allow decision reaches the handler: who allowed it (absent `by`: a policy, the least trusted). */
export function approvalOf(decision: Extract<ApprovalDecision, { kind: 'allow' }>): CallApproval {
  return {
    by: decision.by ?? 'policy',
    ruleId: decision.ruleId ?? null,
    ruleOrigin: decision.ruleOrigin ?? null,
  };
}

/** How a call would run: tools that start processes say whether it asked to leave the sandbox. */
export function callSandbox(call: ReadyCall, state: SandboxState | null): CallSandbox {
  const sandboxed = call.tool.spec.sandboxed;
  if (!sandboxed) return 'none';
  if (!sandboxed(call.args)) return 'unconfined_requested';
  return state?.kind === 'ready' ? 'sandboxed' : 'unconfined_unavailable';
}

/** The outcome of a call the gate did not allow. */
export function deniedOutcome(decision: Exclude<ApprovalDecision, { kind: 'allow' }>): CallOutcome {
  if (decision.kind === 'stop') return { outcome: 'denied', message: 'denied: the user stopped the turn' };
  const message =
    decision.message ?? (decision.reason ? `denied by the user: ${decision.reason}` : 'denied by the user');
  return decision.reason
    ? { outcome: 'denied', message, reason: decision.reason }
    : { outcome: 'denied', message };
}
