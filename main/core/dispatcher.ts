// The dispatcher: every call, built-in, script or MCP alike, is prepared, approved, run under its limit and normalised.
import type { ToolContext, ToolServices } from '../../tools/sdk/types';
import { asAbortReason } from './abort';
import type { AppLogger } from './logger';
import { approvalOf, callSandbox, deniedOutcome, NOT_NEEDED, pinAll } from './approval-step';
import type { CallAbort } from './call-abort';
import { CallContext } from './call-context';
import type { ApprovalResult, CallEvent, CallScope } from './call-types';
import type { ApprovalDecision, ApprovalGate, ApprovalRequest } from './gate-port';
import type { CallOutcome } from './outcome';
import { errorOutcome, okOutcome, thrownOutcome } from './outcome';
import { changedSinceApproval, currentDefinitions } from './definition-check';
import { Emitter } from './emitter';
import type { CallRequest, PrepareDeps, PreparedCall } from './prepare-call';
import { prepareCall } from './prepare-call';
import type { Redactor } from './redactor';
import type { CommandSandbox, SandboxState } from './sandbox-port';
import { timeoutJson } from './registry';
import { runWithLimit } from './run-with-limit';
import type { TaskRegistry } from './task-registry';
import { summariseArgs } from './summarise-args';

type ReadyCall = Extract<PreparedCall, { kind: 'ready' }>;

export type { ApprovalResult, CallEvent, CallScope } from './call-types';

/** Collaborators of the dispatcher. */
export interface DispatcherDeps extends PrepareDeps {
  gate: ApprovalGate;
  tasks: TaskRegistry;
  redactor: Redactor;
  log: AppLogger;
  getSecret: (key: string) => Promise<string | undefined>;
  services: ToolServices;
  /** Multiplies every limit (tests only: AGENVOY_TIMEOUT_SCALE); 1 in real use. */
  timeoutScale?: number;
  /** The OS sandbox commands and script tools run in; without one they run unconfined, and every command asks. */
  sandbox?: CommandSandbox | null;
  /** Told once, the first time a call would run unconfined for want of a sandbox (hosts say so to the person). */
  onSandboxUnavailable?: (reason: string) => void;
  /** Awaited before calls are prepared: loads what the per-call readings need (the settings parser); undefined when
   * there is nothing to wait for. */
  beforeCalls?: () => Promise<void> | undefined;
}

/** Looks up, validates, approves and runs tool calls; emits CallEvents. */
export class Dispatcher {
  private readonly events = new Emitter<CallEvent>();
  // Events are built (and their arguments redacted) only while someone listens: most calls have no listener.
  private listeners = 0;
  private sandboxNoticeGiven = false;
  // The request each approved call was decided on, for deciding it again (reconfirm).
  private readonly requests = new WeakMap<ReadyCall, ApprovalRequest>();

  constructor(private readonly deps: DispatcherDeps) {
    // Handlers of every call get this very object (no copy per call), so none may change it for the others.
    Object.freeze(deps.services);
  }

  /** Subscribes to call events; returns the unsubscribe. */
  on(listener: (event: CallEvent) => void): () => void {
    let subscribed = true;
    this.listeners++;
    const off = this.events.on(listener);
    return () => {
      if (!subscribed) return;
      subscribed = false;
      this.listeners--;
      off();
    };
  }

  /** Whether commands can be confined here (checked once by the sandbox, then cached). */
  async sandboxState(): Promise<SandboxState> {
    const sandbox = this.deps.sandbox;
    if (!sandbox) return { kind: 'unavailable', reason: 'this host runs no OS sandbox' };
    return sandbox.state();
  }

  /** Resolves once what calls read synchronously (settings.json) can be read; await it before `prepare`. */
  async ready(): Promise<void> {
    await this.readyNow();
  }

  // ready() without a promise when there is nothing to wait for (the common case).
  private readyNow(): Promise<void> | undefined {
    return this.deps.beforeCalls?.();
  }

  /** Pass-1 preparation of one call (see prepareCall). */
  prepare(call: CallRequest, scope: CallScope): PreparedCall {
    const prepared = prepareCall(call, this.deps, scope.lazy ?? null, scope.offered);
    // A call answered without running still shows what the model sent (docs/tools.md, "Tool discovery").
    const args = prepared.args ?? {};
    this.emit({ type: 'call.queued', callId: prepared.id, chatId: scope.chatId, tool: prepared.name, args });
    return prepared;
  }

  /** Asks the gate, in one request, about every ready call that is not alwaysAllow. */
  async approve(calls: PreparedCall[], scope: CallScope): Promise<ApprovalResult> {
    return this.approveNow(calls, scope);
  }

  // approve() without a promise when nothing is waited for: no announced change, no pin, nobody to ask.
  private approveNow(calls: PreparedCall[], scope: CallScope): ApprovalResult | Promise<ApprovalResult> {
    // Decided against the definition the registry holds now, every announced change applied (docs/security.md).
    const current = currentDefinitions(calls, this.deps, scope.signal);
    return Array.isArray(current)
      ? this.approveCurrent(calls, scope, current)
      : current.then((found) => this.approveCurrent(calls, scope, found));
  }

  private approveCurrent(
    calls: PreparedCall[],
    scope: CallScope,
    current: Array<CallOutcome | null>,
  ): ApprovalResult | Promise<ApprovalResult> {
    // pinAll makes a signal for the pins when the turn has none: skipped when no call has a pin to run.
    if (calls.some((call) => call.kind === 'ready' && call.tool.spec.pinArguments))
      return pinAll(calls, scope, current).then((outcomes) => this.ask(calls, scope, outcomes));
    return this.ask(calls, scope, current);
  }

  private ask(
    calls: PreparedCall[],
    scope: CallScope,
    outcomes: Array<CallOutcome | null>,
  ): ApprovalResult | Promise<ApprovalResult> {
    const asking = calls
      .map((call, index) => ({ call, index }))
      .filter(
        (x): x is { call: ReadyCall; index: number } =>
          x.call.kind === 'ready' && outcomes[x.index] === null && !x.call.tool.spec.flags.alwaysAllow,
      );
    calls.forEach((call, index) => {
      if (call.kind === 'ready' && outcomes[index] === null) call.approval = NOT_NEEDED;
    });
    if (asking.length === 0) return { outcomes, stop: false };
    return this.askGate(asking, scope, outcomes);
  }

  private async askGate(
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

  /**
   * Runs an approved call under its limit (or starts it as a background task) and emits its events. `reconfirm`
   * says that other calls of its batch ran since it was approved: a call a rule or a chat grant allowed is then
   * decided again first, since what the rule matched (a path's links, a working folder, a repository's config) may
   * have changed under it (docs/security.md, "Decisions and rules"); a person's own answer stands.
   */
  async execute(call: ReadyCall, scope: CallScope, reconfirm = false): Promise<CallOutcome> {
    const checked = changedSinceApproval(call, this.deps, scope.signal);
    const changed = checked instanceof Promise ? await checked : checked;
    if (changed) return this.finish(call, scope, changed);
    if (reconfirm) {
      const denied = await this.reconfirm(call, scope);
      if (denied) return this.finish(call, scope, denied);
    }
    // Stopped during the waits above (a change applied, a reconfirmation): a task must not start after the stop.
    const stop = scope.signal?.aborted ? asAbortReason(scope.signal.reason) : null;
    if (stop) return this.finish(call, scope, { outcome: 'cancelled', message: stop.message, durationMs: 0 });
    const { spec } = call.tool;
    const startedAt = Date.now();
    if (spec.flags.background) return this.finish(call, scope, this.startTask(call, scope, startedAt));
    const limitMs = this.scaled(spec.timeoutMs);
    this.emit({
      type: 'call.started',
      callId: call.id,
      chatId: scope.chatId,
      tool: call.name,
      startedAt,
      limitMs: timeoutJson(limitMs),
    });
    const result = await runWithLimit(
      (abort) => spec.handler(call.args, this.context(call, scope, abort, startedAt, limitMs)),
      {
        limitMs,
        signal: scope.signal,
        onAbandon: (reason) =>
          this.deps.log.warn('abandoned handler that ignored its signal', {
            name: call.name,
            call: call.id,
            reason: reason.message,
          }),
      },
    );
    const durationMs = Date.now() - startedAt;
    switch (result.kind) {
      case 'ok':
        return this.finish(call, scope, okOutcome(result.value, durationMs));
      case 'error':
        if (!(result.error instanceof Error && 'code' in result.error)) {
          this.deps.log.error('tool threw', {
            name: call.name,
            error:
              result.error instanceof Error
                ? (result.error.stack ?? result.error.message)
                : String(result.error),
          });
        }
        return this.finish(call, scope, thrownOutcome(result.error, durationMs));
      case 'timed_out':
        return this.finish(call, scope, {
          outcome: 'timed_out',
          message: result.reason.message,
          limitMs,
          durationMs,
        });
      case 'cancelled':
        return this.finish(call, scope, { outcome: 'cancelled', message: result.reason.message, durationMs });
    }
  }

  // A standing approval decided again: null when the call may still run (its approval updated), else its outcome.
  private async reconfirm(call: ReadyCall, scope: CallScope): Promise<CallOutcome | null> {
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

  /** prepare → approve → execute for one call (CLI and single calls). */
  async dispatch(call: CallRequest, scope: CallScope): Promise<CallOutcome> {
    const loading = this.readyNow();
    if (loading) await loading;
    const prepared = this.prepare(call, scope);
    if (prepared.kind === 'done') return this.finish(prepared, scope, prepared.outcome);
    const asked = this.approveNow([prepared], scope);
    const approval = asked instanceof Promise ? await asked : asked;
    const denied = approval.outcomes[0];
    if (denied) return this.finish(prepared, scope, denied);
    return this.execute(prepared, scope);
  }

  /** Emits call.finished for an outcome decided outside execute (denied, unknown, invalid). */
  finish(call: { id: string; name: string }, scope: CallScope, outcome: CallOutcome): CallOutcome {
    const clean = this.deps.redactor.redactDeep(outcome);
    this.emit({
      type: 'call.finished',
      callId: call.id,
      chatId: scope.chatId,
      tool: call.name,
      outcome: clean,
    });
    return clean;
  }

  private startTask(call: ReadyCall, scope: CallScope, startedAt: number): CallOutcome {
    const { spec } = call.tool;
    const refusal = this.deps.tasks.refusal(scope.chatId);
    if (refusal !== null) return errorOutcome('too_many_tasks', refusal);
    const limitMs = this.scaled(limitOf(call));
    const task = this.deps.tasks.start({
      tool: call.name,
      chatId: scope.chatId,
      summary: this.deps.redactor.redact(summariseArgs(call.args)),
      limitMs,
      run: (signal, report) =>
        spec.handler(
          call.args,
          // A task's progress goes to its output tail, not to call events.
          this.context(call, { ...scope, signal }, signal, Date.now(), limitMs, (update) => {
            if (update.output) report.append(this.deps.redactor.redact(update.output));
            else if (update.message) report.append(this.deps.redactor.redact(update.message + '\n'));
          }),
        ),
    });
    const limit = task.limitMs === null ? 'no limit' : `limit ${Math.round(task.limitMs / 60000)} min`;
    return okOutcome(
      {
        content: [
          {
            type: 'text',
            text: `started background task ${task.id} (${limit}); it runs on while you continue`,
          },
        ],
        data: { taskId: task.id },
      },
      Date.now() - startedAt,
    );
  }

  // The handler's context (main/core/call-context.ts). A foreground call's cancel is a CallAbort: its AbortSignal is
  // made only when the handler reads `signal` (docs/dispatch.md, "The hot path").
  private context(
    call: ReadyCall,
    scope: CallScope,
    cancel: CallAbort | AbortSignal,
    startedAt: number,
    limitMs: number,
    progress?: ToolContext['progress'],
  ): ToolContext {
    return new CallContext({
      cancel,
      progress:
        progress ??
        ((update) =>
          this.emit({
            type: 'call.progress',
            callId: call.id,
            chatId: scope.chatId,
            tool: call.name,
            elapsedMs: Date.now() - startedAt,
            update: this.deps.redactor.redactDeep(update),
          })),
      log: this.deps.log,
      getSecret: this.deps.getSecret,
      workspace: scope.workspace,
      chatId: scope.chatId,
      callId: call.id,
      tool: call.name,
      deadline: Number.isFinite(limitMs) ? startedAt + limitMs : null,
      // A call that never went through approve() (a direct execute in tests) counts as a policy's allow.
      approval: call.approval ?? { by: 'policy', ruleId: null, ruleOrigin: null },
      // Shared, not copied, unless the scope adds services: the object is frozen (see the constructor).
      services: scope.services ? { ...this.deps.services, ...scope.services } : this.deps.services,
    });
  }

  private scaled(limitMs: number): number {
    const scale = this.deps.timeoutScale ?? 1;
    return Number.isFinite(limitMs) ? Math.max(1, Math.round(limitMs * scale)) : limitMs;
  }

  private emit(event: CallEvent): void {
    if (this.listeners === 0) return;
    this.events.emit(
      event.type === 'call.queued' ? { ...event, args: this.deps.redactor.redactDeep(event.args) } : event,
    );
  }
}

/** The limit a call runs under: a background task's own (from its arguments), else the tool's timeout. */
function limitOf(call: ReadyCall): number {
  const { spec } = call.tool;
  return (spec.flags.background ? spec.taskLimitMs?.(call.args) : undefined) ?? spec.timeoutMs;
}
