// The confirm gate (docs/security.md): rules, chat grants and sensitive targets decide what they can; the user decides the rest.
import type { ApprovalDecision, ApprovalGate, ApprovalRequest } from '../core/gate-port';
import { Emitter } from '../core/emitter';
import type { CanonicalArgument } from './canonical-argument';
import { canonicalArgument } from './canonical-argument';
import { commandPlace } from './command-place';
import { compoundOf } from './compound-command';
import { ChatGrants } from './chat-grants';
import { commandNoStanding } from './command-standing';
import { defaultRuleHazard } from './default-rule-check';
import type { GateEvent } from './gate-events';
import { escapeGlob } from './glob';
import type { ApprovalPrompter, PromptItem } from './prompter-port';
import type { RuleBook, RuleSet } from './rule-book';
import { matchRules } from './rule-match';
import type { SensitiveOptions, SensitiveTarget } from './sensitive-targets';
import { findSensitiveTarget } from './sensitive-targets';
import { appFolderOf, appFolderTarget, quickLook } from './sensitive-precheck';
import { askUser } from './ask-session';
import { ruleNamesAddress, secretsReason, secretsSent, sendsWords } from './secret-destination';
import { callSite, grantReach, grantScope, siteOffers, urlArgument } from './call-site';
import { secretReferences } from './secret-references';
import type { Verdict } from './verdicts';
import {
  chatAllowed,
  personAllowed,
  personRequired,
  policyVerdict,
  ruleAllowed,
  ruleDenied,
  unattended,
  cancelledVerdict,
} from './verdicts';

/** How a host without a person at hand decides: ask (the prompter), allow everything, or deny all but alwaysAllow. */
export type ApprovalPolicy = 'ask' | 'allow' | 'deny';

/** Default wait for an answer in headless use (the desktop app waits for ever unless configured). */
export const HEADLESS_APPROVAL_TIMEOUT_MS = 10 * 60 * 1000;

/** What a ConfirmGate is built from. */
export interface ConfirmGateOptions {
  rules: RuleBook;
  sensitive: SensitiveOptions;
  /** Default 'ask'. Deny rules still apply under 'allow': an explicit "always deny" is never overridden. */
  policy?: ApprovalPolicy;
  /**
   * The 'allow' policy is a person's decision for this very call (`agenvoy tools call --yes`, typed for one call),
   * not a blanket one (`agenvoy chat --approve allow`): it may allow what only a person's decision allows.
   */
  personal?: boolean;
  /** Who asks the user; null when nobody can be asked (then calls that need asking are denied). */
  prompter?: ApprovalPrompter | null;
  /** How long a batch waits for answers; null (the default) waits until the turn is cancelled. */
  timeoutMs?: number | null;
  grants?: ChatGrants;
  /** The message a call gets when it needs asking and there is no prompter. */
  unattendedMessage?: (item: PromptItem) => string;
}

/** One call of a batch, with what the gate worked out about it. */
export interface Assessed {
  request: ApprovalRequest;
  canonical: CanonicalArgument;
  sensitive: SensitiveTarget | null;
  /** The `${secret:NAME}` names the call fills in; a standing approval must cover each. */
  secrets: string[];
}

/** What standing approvals say about a call: a verdict, or what to show when the user must be asked. */
export type Standing = { kind: 'decided'; verdict: Verdict } | { kind: 'ask'; item: PromptItem };

/** The ApprovalGate the hosts use. */
export class ConfirmGate implements ApprovalGate {
  readonly rules: RuleBook;
  readonly grants: ChatGrants;
  private readonly events = new Emitter<GateEvent>();

  constructor(private readonly options: ConfirmGateOptions) {
    this.rules = options.rules;
    this.grants = options.grants ?? new ChatGrants();
  }

  /** Subscribes to gate events; returns the unsubscribe. */
  on(listener: (event: GateEvent) => void): () => void {
    return this.events.on(listener);
  }

  /** Decides a batch item by item; the arguments are only ever matched, never read as an approval. */
  async decide(
    requests: ApprovalRequest[],
    { signal }: { signal: AbortSignal },
  ): Promise<ApprovalDecision[]> {
    if (requests.length === 0) return [];
    const chatId = requests[0]?.chatId ?? '';
    const assessed = requests.map((request) => this.assess(request));
    this.events.emit({
      type: 'gate.requested',
      chatId,
      calls: assessed.map((a) => ({
        callId: a.request.callId,
        tool: a.request.tool,
        sensitive: a.sensitive?.label ?? null,
      })),
    });
    const verdicts: Array<Verdict | null> = requests.map(() => null);
    const settle = (index: number, verdict: Verdict) => {
      if (verdicts[index]) return;
      verdicts[index] = verdict;
      const { request } = assessed[index] as Assessed;
      this.events.emit({
        type: 'gate.decided',
        chatId,
        callId: request.callId,
        tool: request.tool,
        ...verdict,
      });
    };
    const policy = this.options.policy ?? 'ask';
    const asks: Array<{ index: number; item: PromptItem }> = [];
    if (policy === 'deny') {
      assessed.forEach((_, i) => settle(i, policyVerdict('deny')));
    } else {
      const ruleSet = await this.rules.current();
      for (const [index, call] of assessed.entries()) {
        const standing = await this.standing(call, ruleSet);
        if (standing.kind === 'decided') settle(index, standing.verdict);
        else if (policy === 'allow') settle(index, this.allowByPolicy(standing.item));
        else asks.push({ index, item: standing.item });
      }
    }
    if (asks.length > 0) {
      const prompter = this.options.prompter ?? null;
      if (signal.aborted) asks.forEach(({ index }) => settle(index, cancelledVerdict()));
      else if (!prompter) {
        for (const { index, item } of asks) settle(index, unattended(this.unattendedMessage(item)));
      } else {
        await askUser({
          gate: this,
          prompter,
          chatId,
          asks: asks.map(({ index, item }) => ({
            item,
            call: assessed[index] as Assessed,
            settle: (v: Verdict) => settle(index, v),
            isSettled: () => verdicts[index] !== null,
          })),
          timeoutMs: this.options.timeoutMs ?? null,
          signal,
          emit: (event) => this.events.emit(event),
        });
      }
    }
    return verdicts.map((v) => (v ?? cancelledVerdict()).decision);
  }

  /**
   * A call a rule or a chat grant allowed, decided again just before it runs after other calls of its batch ran
   * (what the rule matched may have changed under it): the standing decision when it still covers the call, with
   * no events (it was recorded once already); otherwise decided like a new call, which may ask.
   */
  async reconfirm(request: ApprovalRequest, options: { signal: AbortSignal }): Promise<ApprovalDecision> {
    const standing = await this.standing(this.assess(request), await this.rules.current());
    if (standing.kind === 'decided' && standing.verdict.decision.kind === 'allow')
      return standing.verdict.decision;
    const [decision] = await this.decide([request], options);
    return decision ?? cancelledVerdict().decision;
  }

  /**
   * The 'allow' policy's verdict: a person's allow with --yes. A blanket one never covers a person-only call, a
   * sensitive target (which always asks, whatever rules and grants say) or a stored secret sent to an address no rule
   * names (docs/security.md): with them, a steered model read ~/.ssh/id_rsa through a file-reading MCP tool, or sent
   * any stored key to any host, with nobody asked.
   */
  private allowByPolicy(item: PromptItem): Verdict {
    if (this.options.personal) return personAllowed('once');
    const tool = item.request.tool;
    if (item.personOnly) return personRequired(tool, item.personOnly);
    if (item.sensitive) return personRequired(tool, `touches ${item.sensitive}, which always asks`);
    const secrets = secretsSent(item.request);
    if (secrets)
      return personRequired(
        tool,
        sendsWords(secrets),
        "a person's decision for this call or a rule naming that address",
      );
    return policyVerdict('allow');
  }

  /** Forgets the allow-for-this-chat grants of a chat (it ended or was deleted). */
  forgetChat(chatId: string): void {
    this.grants.forget(chatId);
  }

  /**
   * The canonical argument and sensitive target of one call: a command line read as its shell will read it, from
   * its real working folder; paths resolved from there (or the workspace) through symlinks (docs/security.md).
   */
  assess(request: ApprovalRequest): Assessed {
    const { canonical, sensitive } = this.sensitiveTarget(request);
    return {
      request,
      canonical,
      sensitive:
        sensitive ?? appFolderTarget(request.args, appFolderOf(request.pathsFrom, this.options.sensitive)),
      secrets: secretReferences(request.args),
    };
  }

  /** Whether a call of a tool that needs no approval names a sensitive target all the same (gate-port.ts). */
  namesSensitiveTarget(call: Pick<ApprovalRequest, 'tool' | 'args' | 'workspace' | 'pathsFrom'>): boolean {
    // Links are looked for where the tool reads relative names: a server with a folder of its own does not read
    // them from the workspace.
    const look = quickLook(
      call.args,
      call.pathsFrom === undefined ? call.workspace : null,
      appFolderOf(call.pathsFrom, this.options.sensitive),
    );
    if (look !== 'check') return look === 'app';
    return this.sensitiveTarget(call).sensitive !== null;
  }

  private sensitiveTarget(call: Pick<ApprovalRequest, 'tool' | 'args' | 'workspace'>): {
    canonical: CanonicalArgument;
    sensitive: SensitiveTarget | null;
  } {
    const home = this.options.sensitive.homes[0];
    const canonical = canonicalArgument(call.tool, call.args, { workspace: call.workspace, home });
    const place = canonical.kind === 'command' ? canonical.place : commandPlace(call.workspace, '');
    const scope = place ? { workspace: place.workspace, cwd: place.cwd } : null;
    return { canonical, sensitive: findSensitiveTarget(call.args, canonical, this.options.sensitive, scope) };
  }

  /** What rules and grants say about a call; sensitive targets and unmatched calls must be asked. */
  async standing(call: Assessed, ruleSet: RuleSet): Promise<Standing> {
    const { request, canonical, sensitive, secrets: secretNames } = call;
    // A call that sends a stored secret is covered only by a rule naming its address, never by a chat grant or a
    // rule for any address (secret-destination.ts); and a rule covers only the secrets its call sent (rule-match.ts).
    const secrets = secretsSent(request);
    const rules =
      ruleSet.kind !== 'ok'
        ? null
        : secrets
          ? ruleSet.rules.filter((rule) => rule.effect === 'deny' || ruleNamesAddress(rule))
          : ruleSet.rules;
    const match = rules
      ? matchRules(rules, request, canonical, secretNames)
      : { kind: 'none' as const, voided: [], compound: null };
    // A deny rule decides even for a sensitive target: denying is never the unsafe direction.
    if (match.kind === 'deny') return { kind: 'decided', verdict: ruleDenied(match.rule) };
    // Read from the line itself, not from the rule match: with a damaged rules file no rule is matched at all, and
    // a chained line must still get no standing offer and no chat grant (docs/security.md, "Decisions and rules").
    const compound = compoundOf(canonical);
    const personOnly = personOnlyReason(request);
    let noStanding = personOnly
      ? null
      : (noStandingReason(request, canonical) ?? commandNoStanding(canonical));
    // A default rule vouches for the argv; what it cannot see (PATH, a repository's config) is checked now.
    if (!sensitive && !personOnly && !noStanding && match.kind === 'allow' && match.rule.origin === 'default')
      noStanding = await defaultRuleHazard(canonical, match.rule, this.options.sensitive.homes[0]);
    if (!sensitive && !personOnly && !noStanding) {
      if (match.kind === 'allow') {
        if (match.bind)
          await this.rules.bind(match.rule.id, request.tool, request.definitionHash).catch(() => undefined);
        return { kind: 'decided', verdict: ruleAllowed(match.rule) };
      }
      // A chat grant is a standing approval like an allow rule: it does not cover compound command lines either.
      if (
        !compound &&
        !secrets &&
        this.grants.has(
          request.chatId,
          request.tool,
          request.definitionHash,
          grantScope(request.args, canonical),
        )
      )
        return { kind: 'decided', verdict: chatAllowed() };
    }
    const site = siteOffers(request.args, canonical);
    return {
      kind: 'ask',
      item: {
        request,
        canonical: canonical.text,
        suggestedPattern: suggestedPattern(canonical, request.args),
        sensitive: sensitive ? `${sensitive.label} (in \`${sensitive.argument}\`)` : null,
        compound,
        voidedRules: match.kind === 'none' ? match.voided.map((rule) => rule.id) : [],
        personOnly,
        noStanding: noStanding ?? (secrets ? secretsReason(secrets) : null),
        // A chained command line is never offered a standing approval: no rule or grant could cover it later. Nor is
        // a URL with no plain site (userinfo, another scheme, unparsable): its grant or rule could only be for every
        // address (call-site.ts); nor a rule where rules match something else than the URL (download_file's path).
        offers: {
          // A grant never covers sending a secret; a rule may, for its site and the secrets this call sends.
          chat: !sensitive && !compound && !personOnly && !noStanding && !secrets && site.chat,
          always: !sensitive && !compound && !personOnly && !noStanding && site.always,
        },
        grant: grantReach(request.args, canonical),
      },
    };
  }

  private unattendedMessage(item: PromptItem): string {
    if (this.options.unattendedMessage) return this.options.unattendedMessage(item);
    return `denied: ${item.request.tool} needs approval${whyAsked(item)} and there is nobody to ask`;
  }
}

/**
 * The pattern an "always" answer saves unless the person writes another: the exact command line, or for a URL the
 * site it goes to (`https://docs.python.org/**`), so one click never allows every address a model may put data in
 * (docs/security.md, "Data leaving the machine"); null (any arguments) for anything else.
 */
function suggestedPattern(canonical: CanonicalArgument, args: Record<string, unknown>): string | null {
  if (canonical.kind === 'command') return escapeGlob(canonical.text);
  if (canonical.kind !== 'value' || canonical.key !== urlArgument(args)?.key) return null;
  const site = callSite(args);
  return site === null || /[[\]*?\\]/.test(site) ? null : `${site}/**`;
}

/** Why only a person's decision for this very call may allow it (docs/security.md), or null. */
export function personOnlyReason(request: ApprovalRequest): string | null {
  if (request.sandbox === 'unconfined_requested')
    return 'asks to run outside the OS sandbox (sandbox: false)';
  if (request.source.kind === 'script' && !request.source.trusted)
    return (
      request.source.untrusted ?? `comes from a workspace folder you have not trusted (${request.source.dir})`
    );
  return null;
}

// Without a sandbox, command rules and chat grants stop applying: every command asks (docs/security.md).
function noStandingReason(request: ApprovalRequest, canonical: CanonicalArgument): string | null {
  if (request.sandbox === 'unconfined_unavailable' && canonical.kind === 'command')
    return 'no OS sandbox can start here, so commands run unconfined and no rule or grant covers them';
  return null;
}

/** Why a call had to be asked, in words for a denial with nobody to ask: " (…)", or '' for an ordinary call. */
export function whyAsked(item: PromptItem): string {
  const reasons = [
    voidedText(item.voidedRules),
    item.personOnly && `it ${item.personOnly}, which only a person's decision for this call allows`,
    item.sensitive && `it touches ${item.sensitive}, which always asks`,
    item.noStanding,
    item.compound && `a compound command line, ${item.compound}: no rule or grant covers it`,
  ].filter((reason): reason is string => Boolean(reason));
  return reasons.length > 0 ? ` (${reasons.join('; ')})` : '';
}

/** The allow rules a changed tool definition voided, named as voided; null when there are none. */
export function voidedText(ids: readonly string[]): string | null {
  if (ids.length === 0) return null;
  const rules = ids.length === 1 ? `allow rule ${ids[0]} was` : `allow rules ${ids.join(', ')} were`;
  return `${rules} voided: the tool's definition changed since ${ids.length === 1 ? 'it' : 'they'} approved it`;
}
