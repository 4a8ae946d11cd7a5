// The dispatcher: every call, built-in, script or MCP alike, is prepared, approved, run under its limit and normalised.
import type { ToolContext, ToolResult, ToolServices } from '../../tools/sdk/types';
import { asAbortReason } from './abort';
import type { AppLogger } from './logger';
import { NOT_NEEDED, pinAll } from './approval-step';
import type { CallAbort } from './call-abort';
import { CallContext } from './call-context';
import type { ApprovalResult, CallEvent, CallScope } from './call-types';
import type { ApprovalGate } from './gate-port';
import { GateAsking, limitOf } from './gate-asking';
import type { CallOutcome } from './outcome';
import { errorOutcome, okOutcome, thrownOutcome } from './outcome';
import { changedSinceApproval, currentDefinitions } from './definition-check';
import { Emitter } from './emitter';
import type { CallRequest, PrepareDeps, PreparedCall } from './prepare-call';
import { prepareCall } from './prepare-call';
import type { Redactor } from './redactor';
import type { CommandSandbox, SandboxState } from './sandbox-port';
import { timeoutJson } from './registry';
import type { LimitedOutcome } from './run-with-limit';
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
  // The gate's side of approval: its requests, the sandbox notice, reconfirmation.
  private readonly asking: GateAsking;

  constructor(private readonly deps: DispatcherDeps) {
    // Handlers of every call get this very object (no copy per call), so none may change it for the others.
    Object.freeze(deps.services);
    this.asking = new GateAsking(
      deps,
      (event) => this.emit(event),
      (limitMs) => this.scaled(limitMs),
    );
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
  sandboxState(): Promise<SandboxState> {
    return this.asking.sandboxState();
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
          x.call.kind === 'ready' && outcomes[x.index] === null && this.asking.decides(x.call, scope),
      );
    calls.forEach((call, index) => {
      if (call.kind === 'ready' && outcomes[index] === null) call.approval = NOT_NEEDED;
    });
    if (asking.length === 0) return { outcomes, stop: false };
    return this.asking.ask(asking, scope, outcomes);
  }

  /**
   * Runs an approved call under its limit (or starts it as a background task) and emits its events. `reconfirm`
   * says that other calls of its batch ran since it was approved: a call a rule or a chat grant allowed is then
   * decided again first, since what the rule matched (a path's links, a working folder, a repository's config) may
   * have changed under it (docs/security.md, "Decisions and rules"); a person's own answer stands.
   */
  execute(call: ReadyCall, scope: CallScope, reconfirm = false): Promise<CallOutcome> {
    try {
      const checked = changedSinceApproval(call, this.deps, scope.signal);
      // Waiting (an announced change, a reconfirmation) takes the async path; the common one makes no async frame
      // (docs/dispatch.md, "The hot path").
      if (checked instanceof Promise || reconfirm)
        return this.executeAfterChecks(call, scope, checked, reconfirm);
      if (checked) return Promise.resolve(this.finish(call, scope, checked));
      return this.run(call, scope);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private async executeAfterChecks(
    call: ReadyCall,
    scope: CallScope,
    checked: CallOutcome | null | Promise<CallOutcome | null>,
    reconfirm: boolean,
  ): Promise<CallOutcome> {
    const changed = checked instanceof Promise ? await checked : checked;
    if (changed) return this.finish(call, scope, changed);
    if (reconfirm) {
      const denied = await this.asking.reconfirm(call, scope);
      if (denied) return this.finish(call, scope, denied);
    }
    return this.run(call, scope);
  }

  // The run itself, once nothing stands in the way.
  private run(call: ReadyCall, scope: CallScope): Promise<CallOutcome> {
    // Stopped during the waits before (a change applied, a reconfirmation): a task must not start after the stop.
    const stop = scope.signal?.aborted ? asAbortReason(scope.signal.reason) : null;
    if (stop)
      return Promise.resolve(
        this.finish(call, scope, { outcome: 'cancelled', message: stop.message, durationMs: 0 }),
      );
    const { spec } = call.tool;
    const startedAt = Date.now();
    if (spec.flags.background)
      return Promise.resolve(this.finish(call, scope, this.startTask(call, scope, startedAt)));
    const limitMs = this.scaled(spec.timeoutMs);
    this.emit({
      type: 'call.started',
      callId: call.id,
      chatId: scope.chatId,
      tool: call.name,
      startedAt,
      limitMs: timeoutJson(limitMs),
    });
    return runWithLimit(
      (abort) => spec.handler(call.args, this.context(call, scope, abort, startedAt, limitMs)),
      {
        limitMs,
        signal: scope.signal,
        startNow: true,
        onAbandon: (reason) =>
          this.deps.log.warn('abandoned handler that ignored its signal', {
            name: call.name,
            call: call.id,
            reason: reason.message,
          }),
      },
    ).then((result) => this.ended(call, scope, result, Date.now() - startedAt, limitMs));
  }

  // How the handler's run ended, as the call's outcome.
  private ended(
    call: ReadyCall,
    scope: CallScope,
    result: LimitedOutcome<ToolResult>,
    durationMs: number,
    limitMs: number,
  ): CallOutcome {
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

  /** prepare → approve → execute for one call (CLI and single calls). */
  dispatch(call: CallRequest, scope: CallScope): Promise<CallOutcome> {
    try {
      const loading = this.readyNow();
      return loading ? loading.then(() => this.dispatchNow(call, scope)) : this.dispatchNow(call, scope);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  // dispatch() once the settings can be read: chained, not awaited, so the common path makes no async frame.
  private dispatchNow(call: CallRequest, scope: CallScope): Promise<CallOutcome> {
    const prepared = this.prepare(call, scope);
    if (prepared.kind === 'done') return Promise.resolve(this.finish(prepared, scope, prepared.outcome));
    const asked = this.approveNow([prepared], scope);
    return asked instanceof Promise
      ? asked.then((approval) => this.afterApproval(prepared, scope, approval))
      : this.afterApproval(prepared, scope, asked);
  }

  private afterApproval(
    prepared: ReadyCall,
    scope: CallScope,
    approval: ApprovalResult,
  ): Promise<CallOutcome> {
    const denied = approval.outcomes[0];
    if (denied) return Promise.resolve(this.finish(prepared, scope, denied));
    return this.execute(prepared, scope);
  }

  /** Emits call.finished for an outcome decided outside execute (denied, unknown, invalid). */
  finish(call: { id: string; name: string }, scope: CallScope, outcome: CallOutcome): CallOutcome {
    const clean = this.deps.redactor.redactOutcome(outcome);
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
      run: (signal, report) => {
        // A task's progress goes to its output tail, not to call events: its output as one stream, so a key written
        // in two pieces is held back until it is whole (docs/security.md, "Redaction").
        const output = this.deps.redactor.stream();
        return Promise.resolve(
          spec.handler(
            call.args,
            this.context(call, { ...scope, signal }, signal, Date.now(), limitMs, (update) => {
              const text = update.output
                ? output.push(update.output)
                : update.message
                  ? this.deps.redactor.redact(update.message + '\n')
                  : '';
              if (text !== '') report.append(text);
            }),
          ),
        ).finally(() => {
          const rest = output.end();
          if (rest !== '') report.append(rest);
        });
      },
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
    if (event.type === 'call.queued') {
      // Copied only when redaction changed the arguments (never while no secret is known).
      const args = this.deps.redactor.redactDeep(event.args);
      if (args !== event.args) event = { ...event, args };
    }
    this.events.emit(event);
  }
}
