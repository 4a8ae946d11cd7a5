// The gate's side of approval (docs/security.md, "Decisions and rules"): the one request a batch's calls are decided
// in, the notice that commands will run unconfined, and a standing approval decided again before a later call runs.
import { approvalOf, callSandbox, deniedOutcome } from './approval-step';
import type { ApprovalResult, CallEvent, CallScope } from './call-types';
import type { ApprovalDecision, ApprovalGate, ApprovalRequest } from './gate-port';
import type { CallOutcome } from './outcome';
import type { PreparedCall } from './prepare-call';
import { timeoutJson } from './registry';
import type { CommandSandbox, SandboxState } from './sandbox-port';

type ReadyCall = Extract<PreparedCall, { kind: 'ready' }>;

/** What asking needs of the dispatcher's collaborators. */
export interface GateAskingDeps {
  gate: ApprovalGate;
  sandbox?: CommandSandbox | null;
  onSandboxUnavailable?: (reason: string) => void;
}

/** Asks the gate about a dispatcher's calls and remembers what each approval was decided on. */
export class GateAsking {
  private sandboxNoticeGiven = false;
  // The request each approved call was decided on, for deciding it again (reconfirm).
  private readonly requests = new WeakMap<ReadyCall, ApprovalRequest>();

  constructor(
    private readonly deps: GateAskingDeps,
    private readonly emit: (event: CallEvent) => void,
    private readonly scaled: (limitMs: number) => number,
  ) {}

  /** Whether commands can be confined here (checked once by the sandbox, then cached). */
  async sandboxState(): Promise<SandboxState> {
    const sandbox = this.deps.sandbox;
    if (!sandbox) return { kind: 'unavailable', reason: 'this host runs no OS sandbox' };
    return sandbox.state();
  }

  /**
   * Whether the gate decides this call: every call of a tool that needs approval, and one of an alwaysAllow tool from
   * a script or an MCP server whose arguments name a sensitive target (docs/security.md, "Nothing skips the gate").
   * The app's own alwaysAllow tools (`check_task`, `search_web`) read no file: a web search for ".env files" is not a
   * read of one.
   */
  decides(call: ReadyCall, scope: CallScope): boolean {
    const { spec } = call.tool;
    if (!spec.flags.alwaysAllow) return true;
    if (spec.source.kind === 'builtin') return false;
    return (
      this.deps.gate.namesSensitiveTarget?.({
        tool: call.name,
        args: call.args,
        workspace: scope.workspace,
        ...pathsFrom(call),
      }) === true
    );
  }

  /** Asks the gate, in one request, about these calls; fills `outcomes` with the denials. */
  async ask(
    asking: Array<{ call: ReadyCall; index: number }>,
    scope: CallScope,
    outcomes: Array<CallOutcome | null>,
  ): Promise<ApprovalResult> {
    const state = asking.some(({ call }) => call.tool.spec.sandboxed) ? await this.sandboxState() : null;
    if (state?.kind === 'unavailable' && !this.sandboxNoticeGiven) {
      this.sandboxNoticeGiven = true;
      this.deps.onSandboxUnavailable?.(state.reason);
    }
    const requests: ApprovalRequest[] = asking.map(({ call }) => ({
      callId: call.id,
      chatId: scope.chatId,
      tool: call.name,
      source: call.tool.spec.source,
      flags: { ...call.tool.spec.flags },
      // A background tool is shown the task's own limit (its `timeout_min`), not its foreground default.
      timeoutMs: timeoutJson(this.scaled(limitOf(call))),
      definitionHash: call.tool.definitionHash,
      args: call.args,
      workspace: scope.workspace,
      ...pathsFrom(call),
      sandbox: callSandbox(call, state),
    }));
    const decisions = await this.deps.gate.decide(requests, {
      signal: scope.signal ?? new AbortController().signal,
    });
    let stop = false;
    asking.forEach(({ call, index }, i) => {
      const decision: ApprovalDecision = decisions[i] ?? {
        kind: 'deny',
        message: 'denied: no decision was given',
      };
      this.emit({ type: 'call.approval', callId: call.id, chatId: scope.chatId, tool: call.name, decision });
      if (decision.kind === 'allow') {
        call.approval = approvalOf(decision);
        this.requests.set(call, requests[i] as ApprovalRequest);
        return;
      }
      delete call.approval;
      if (decision.kind === 'stop') stop = true;
      outcomes[index] = deniedOutcome(decision);
    });
    return { outcomes, stop };
  }

  // A standing approval decided again: null when the call may still run (its approval updated), else its outcome.
  async reconfirm(call: ReadyCall, scope: CallScope): Promise<CallOutcome | null> {
    const request = this.requests.get(call);
    const by = call.approval?.by;
    if (!request || (by !== 'rule' && by !== 'chat_grant')) return null;
    const { gate } = this.deps;
    const signal = scope.signal ?? new AbortController().signal;
    const decision = gate.reconfirm
      ? await gate.reconfirm(request, { signal })
      : (await gate.decide([request], { signal }))[0];
    const final: ApprovalDecision = decision ?? { kind: 'deny', message: 'denied: no decision was given' };
    this.emit({
      type: 'call.approval',
      callId: call.id,
      chatId: scope.chatId,
      tool: call.name,
      decision: final,
    });
    if (final.kind === 'allow') {
      call.approval = approvalOf(final);
      return null;
    }
    delete call.approval;
    return deniedOutcome(final);
  }
}

// Where the tool reads a relative path in its arguments from, when not the workspace: a stdio MCP server reads it
// from its working folder, $AGENVOY_HOME unless set.
function pathsFrom(call: ReadyCall): { pathsFrom?: string } {
  const from = call.tool.spec.pathsFrom;
  return from === undefined ? {} : { pathsFrom: from };
}

/** The limit a call runs under: a background task's own (from its arguments), else the tool's timeout. */
export function limitOf(call: ReadyCall): number {
  const { spec } = call.tool;
  return (spec.flags.background ? spec.taskLimitMs?.(call.args) : undefined) ?? spec.timeoutMs;
}
