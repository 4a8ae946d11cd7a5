// Matching a call against the rules (SPEC §8): deny beats allow; compound command lines never match an allow rule.
import type { ApprovalRequest } from '../core/gate-port';
import type { CanonicalArgument } from './canonical-argument';
import { compoundOperator } from './compound-command';
import { matchGlob } from './glob';
import type { ApprovalRule } from './rule-types';

/** What the rules say about one call. */
export type RuleMatch =
  | { kind: 'deny'; rule: ApprovalRule }
  /** `bind` is set when a user rule meets this tool for the first time and must record its definition. */
  | { kind: 'allow'; rule: ApprovalRule; bind: boolean }
  /** No rule decides: `voided` lists allow rules that would have matched but for a changed tool definition. */
  | { kind: 'none'; voided: ApprovalRule[]; compound: string | null };

/** Matches one call against the rules in force. */
export function matchRules(
  rules: readonly ApprovalRule[],
  request: ApprovalRequest,
  canonical: CanonicalArgument,
): RuleMatch {
  const deny = rules.find(
    (rule) => rule.effect === 'deny' && matchGlob(rule.tool, request.tool) && denyMatches(rule, canonical),
  );
  if (deny) return { kind: 'deny', rule: deny };
  const compound = canonical.kind === 'command' ? compoundOperator(canonical.text) : null;
  const voided: ApprovalRule[] = [];
  if (compound) return { kind: 'none', voided, compound };
  for (const rule of rules) {
    if (rule.effect !== 'allow' || !matchGlob(rule.tool, request.tool) || !allowMatches(rule, canonical))
      continue;
    switch (rule.origin) {
      case 'default':
        // Defaults vouch for the built-in commands they name; nothing else may borrow them.
        if (request.source.kind === 'builtin') return { kind: 'allow', rule, bind: false };
        continue;
      case 'user': {
        const approved = rule.definitions[request.tool];
        if (approved === undefined) return { kind: 'allow', rule, bind: true };
        if (approved === request.definitionHash) return { kind: 'allow', rule, bind: false };
        voided.push(rule);
        continue;
      }
    }
  }
  return { kind: 'none', voided, compound: null };
}

// A deny rule matches when any of the call's target values matches (the strict reading).
function denyMatches(rule: ApprovalRule, canonical: CanonicalArgument): boolean {
  if (rule.pattern === null) return true;
  const values = targets(canonical);
  return values.some(
    (value) =>
      matchGlob(rule.pattern as string, value) && !rule.except.some((glob) => matchGlob(glob, value)),
  );
}

// An allow rule matches only when every target value matches and none is excepted.
function allowMatches(rule: ApprovalRule, canonical: CanonicalArgument): boolean {
  const values = targets(canonical);
  if (values.some((value) => rule.except.some((glob) => matchGlob(glob, value)))) return false;
  if (rule.pattern === null) return true;
  return values.every((value) => matchGlob(rule.pattern as string, value));
}

function targets(canonical: CanonicalArgument): string[] {
  return canonical.kind === 'json' ? [canonical.text] : [canonical.text, ...canonical.others];
}
