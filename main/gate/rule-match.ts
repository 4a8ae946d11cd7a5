// Matching a call against the rules (docs/security.md): deny beats allow; an allow rule matches only a
// command line that is one plainly known command run inside the workspace, and a URL as the WHATWG parser reads it.
import type { ApprovalRequest } from '../core/gate-port';
import { legacyHashOf } from '../core/registry';
import type { CanonicalArgument } from './canonical-argument';
import { compoundOf } from './compound-command';
import { matchGlob } from './glob';
import type { ApprovalRule } from './rule-types';
import { secretsCovered } from './secret-references';
import { isUrlPattern, parseUrl, parseUrlPattern, urlMatches } from './url-pattern';

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
  /** The `${secret:NAME}` names the call fills in: an allow rule must cover each (secret-references.ts). */
  secrets: readonly string[] = [],
): RuleMatch {
  const deny = rules.find(
    (rule) => rule.effect === 'deny' && matchGlob(rule.tool, request.tool) && denyMatches(rule, canonical),
  );
  if (deny) return { kind: 'deny', rule: deny };
  const compound = compoundOf(canonical);
  const voided: ApprovalRule[] = [];
  if (compound) return { kind: 'none', voided, compound };
  // What the shell would work out only at run time, or a working folder outside the workspace: no rule fits a
  // command tool's line. (Another tool's `command` argument is only known not to chain commands.)
  if (
    canonical.kind === 'command' &&
    canonical.shell &&
    (!canonical.reading.argv || canonical.place?.inside !== true)
  )
    return { kind: 'none', voided, compound: null };
  for (const rule of rules) {
    if (rule.effect !== 'allow' || !matchGlob(rule.tool, request.tool) || !allowMatches(rule, canonical))
      continue;
    // A rule sends only the secrets a person saw a call send with it, not any the model names (docs/security.md).
    if (!secretsCovered(secrets, rule.origin === 'user' ? rule.secrets : [])) continue;
    switch (rule.origin) {
      case 'default':
        // Defaults vouch for the built-in commands they name, run in the OS sandbox; nothing else may borrow them.
        if (request.source.kind === 'builtin' && request.sandbox === 'sandboxed')
          return { kind: 'allow', rule, bind: false };
        continue;
      case 'user': {
        // An untrusted workspace tool never borrows a standing approval, nor gets one bound (docs/security.md).
        if (untrusted(request)) continue;
        const approved = rule.definitions[request.tool];
        if (approved === undefined) return { kind: 'allow', rule, bind: true };
        if (approved === request.definitionHash) return { kind: 'allow', rule, bind: false };
        // A rule saved before approvals named the tool's source carries the content hash alone: the first tool
        // with that content met here (global, built-in, MCP or trusted, never an untrusted one) takes it over.
        if (legacyHashOf(request.definitionHash, approved) !== null)
          return { kind: 'allow', rule, bind: true };
        voided.push(rule);
        continue;
      }
    }
  }
  return { kind: 'none', voided, compound: null };
}

function untrusted(request: ApprovalRequest): boolean {
  return request.source.kind === 'script' && !request.source.trusted;
}

// A deny rule matches when any of the call's target values matches (the strict reading): a command's normal form
// or its text as written, a URL as text or as parsed, so denying is never weakened by how a call is spelled.
function denyMatches(rule: ApprovalRule, canonical: CanonicalArgument): boolean {
  if (rule.pattern === null) return true;
  const pattern = rule.pattern;
  const url = isUrlPattern(pattern) ? parseUrlPattern(pattern) : null;
  return targets(canonical, true).some((value) => {
    const excepted = rule.except.some((glob) => matchGlob(glob, value));
    if (excepted) return false;
    if (matchGlob(pattern, value)) return true;
    const parsed = url ? parseUrl(value) : null;
    return url !== null && parsed !== null && urlMatches(url, parsed, false);
  });
}

// An allow rule matches only when every target value matches and none is excepted. A default rule decides on the
// argv that will run; a URL pattern only on URLs that parse, part by part.
function allowMatches(rule: ApprovalRule, canonical: CanonicalArgument): boolean {
  const values = targets(canonical, false);
  if (values.some((value) => rule.except.some((glob) => matchGlob(glob, value)))) return false;
  if (rule.origin === 'default' && canonical.kind === 'command') {
    const argv = canonical.reading.argv;
    return (
      canonical.shell &&
      argv !== null &&
      rule.accepts !== undefined &&
      rule.accepts(argv) &&
      canonical.others.length === 0
    );
  }
  if (rule.pattern === null) return true;
  const pattern = rule.pattern;
  if (isUrlPattern(pattern)) {
    const url = parseUrlPattern(pattern);
    return (
      url !== null &&
      values.every((value) => {
        const parsed = parseUrl(value);
        return parsed !== null && urlMatches(url, parsed, true);
      })
    );
  }
  return values.every((value) => matchGlob(pattern, value));
}

function targets(canonical: CanonicalArgument, withRaw: boolean): string[] {
  if (canonical.kind === 'json') return [canonical.text];
  const raw =
    withRaw && canonical.kind === 'command' && canonical.raw !== canonical.text ? [canonical.raw] : [];
  return [canonical.text, ...raw, ...canonical.others];
}
