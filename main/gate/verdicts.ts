// How each way of deciding a call becomes the ApprovalDecision the dispatcher reads (and the model sees).
import type { ApprovalDecision } from '../core/gate-port';
import type { DecidedBy } from './gate-events';
import type { ApprovalRule } from './rule-types';

/** A decision with who made it. */
export interface Verdict {
  decision: ApprovalDecision;
  by: DecidedBy;
  ruleId: string | null;
}

/** Denied by an always-deny rule. */
export function ruleDenied(rule: ApprovalRule): Verdict {
  const what = rule.pattern === null ? rule.tool : `${rule.tool} "${rule.pattern}"`;
  return {
    decision: {
      kind: 'deny',
      scope: 'always',
      message: `denied: the user always denies ${what} (rule ${rule.id})`,
    },
    by: 'rule',
    ruleId: rule.id,
  };
}

/** Allowed by an always-allow rule (a shipped default or the user's). */
export function ruleAllowed(rule: ApprovalRule): Verdict {
  return {
    decision: { kind: 'allow', scope: 'always', by: 'rule', ruleId: rule.id, ruleOrigin: rule.origin },
    by: 'rule',
    ruleId: rule.id,
  };
}

/** Allowed by an allow-for-this-chat grant. */
export function chatAllowed(): Verdict {
  return { decision: { kind: 'allow', scope: 'chat', by: 'chat_grant' }, by: 'chat_grant', ruleId: null };
}

/** Allowed by a person for this one call (a dialog, the terminal, or `tools call --yes`). */
export function personAllowed(
  scope: 'once' | 'chat' | 'always' = 'once',
  ruleId: string | null = null,
): Verdict {
  return { decision: { kind: 'allow', scope, by: 'person', ruleId }, by: 'user', ruleId };
}

/** Decided by the headless policy (`--approve allow|deny`). */
export function policyVerdict(policy: 'allow' | 'deny'): Verdict {
  return policy === 'allow'
    ? { decision: { kind: 'allow', scope: 'once', by: 'policy' }, by: 'policy', ruleId: null }
    : {
        decision: { kind: 'deny', message: 'denied: this host runs without approvals (--approve deny)' },
        by: 'policy',
        ruleId: null,
      };
}

/**
 * Denied under a blanket policy because only a person's decision for this very call (or what `allowedBy` names)
 * may allow it.
 */
export function personRequired(
  tool: string,
  why: string,
  allowedBy = "a person's decision for this call",
): Verdict {
  return {
    decision: {
      kind: 'deny',
      message: `denied: ${tool} ${why}, so only ${allowedBy} can allow it, not --approve allow`,
    },
    by: 'policy',
    ruleId: null,
  };
}

/** Denied because nobody answered within the time-out. */
export function timedOut(timeoutMs: number): Verdict {
  return {
    decision: { kind: 'deny', message: `denied: no answer within ${seconds(timeoutMs)} s` },
    by: 'timeout',
    ruleId: null,
  };
}

/** Denied because there is nobody to ask. */
export function unattended(message: string): Verdict {
  return { decision: { kind: 'deny', message }, by: 'no_prompter', ruleId: null };
}

/** Denied because the turn was cancelled while the question was open. */
export function cancelledVerdict(): Verdict {
  return {
    decision: { kind: 'deny', message: 'denied: the turn was cancelled before an answer' },
    by: 'cancelled',
    ruleId: null,
  };
}

/** Denied because the prompt itself failed (or ended without an answer). */
export function promptFailed(message: string): Verdict {
  return { decision: { kind: 'deny', message: `denied: ${message}` }, by: 'prompt_failed', ruleId: null };
}

/** Seconds as the time-out message shows them: whole seconds, or two decimals below ten. */
export function seconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(ms < 10_000 ? 2 : 0)));
}
