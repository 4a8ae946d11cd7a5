// A tool's definition can change while the app runs (an MCP server's tools/list_changed, a script folder edited).
// Approval rules and chat grants are bound to the definition hash (docs/security.md), so a call is decided, and
// run, only against the definition the registry holds once every change already announced has been applied:
// there is no window in which the approval of an old definition lets a call of the new one through.
import { asAbortReason } from './abort';
import type { CallOutcome } from './outcome';
import { errorOutcome } from './outcome';
import { dropNullOptionals } from './null-optionals';
import type { PrepareDeps, PreparedCall } from './prepare-call';

type ReadyCall = Extract<PreparedCall, { kind: 'ready' }>;

/**
 * Waits until the sources of these calls have applied every definition change they announced, or the turn is
 * stopped (then resolves true: a server that announced a change and answers its tools/list slowly must not hold a
 * stop for its connect timeout). Nothing to wait for (no source announces changes, as for built-ins, or none is
 * being applied) costs nothing, no promise: this runs twice for every call (docs/dispatch.md, "The hot path").
 */
function settle(calls: readonly ReadyCall[], signal: AbortSignal | undefined): Promise<boolean> | undefined {
  let waits: Array<Promise<void>> | undefined;
  let asked: Array<() => Promise<void> | undefined> | undefined;
  for (const call of calls) {
    const wait = call.tool.spec.settled;
    if (!wait || asked?.includes(wait)) continue;
    (asked ??= []).push(wait);
    const pending = wait();
    if (pending) (waits ??= []).push(pending);
  }
  if (!waits) return undefined;
  const quiet = () => undefined;
  const settled =
    waits.length === 1
      ? (waits[0] as Promise<void>).catch(quiet)
      : Promise.all(waits.map((wait) => wait.catch(quiet)));
  if (!signal) return settled.then(() => false);
  if (signal.aborted) return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    const stopped = (): void => resolve(true);
    signal.addEventListener('abort', stopped, { once: true });
    void settled.then(() => {
      signal.removeEventListener('abort', stopped);
      resolve(false);
    });
  });
}

// The outcome of a call stopped while it waited for its tool's announced definition.
function stoppedWaiting(signal: AbortSignal | undefined): CallOutcome {
  const reason = asAbortReason(signal?.reason);
  return { outcome: 'cancelled', message: reason.message, durationMs: 0 };
}

/**
 * Before the gate: each ready call is moved onto the tool's current definition. A changed definition is what the
 * gate then sees (so rules bound to the old hash no longer apply), once the arguments are checked against its
 * schema again; a removed tool, or arguments the new schema refuses, make that call's outcome. The others go on.
 */
export function currentDefinitions(
  calls: PreparedCall[],
  deps: PrepareDeps,
  signal?: AbortSignal,
): Array<CallOutcome | null> | Promise<Array<CallOutcome | null>> {
  const waiting = settle(
    calls.filter((call): call is ReadyCall => call.kind === 'ready'),
    signal,
  );
  return waiting
    ? waiting.then((stopped) => onCurrent(calls, deps, stopped, signal))
    : onCurrent(calls, deps, false, signal);
}

function onCurrent(
  calls: PreparedCall[],
  deps: PrepareDeps,
  stopped: boolean,
  signal: AbortSignal | undefined,
): Array<CallOutcome | null> {
  return calls.map((call) => {
    if (call.kind !== 'ready') return null;
    if (stopped) return stoppedWaiting(signal);
    const current = deps.registry.get(call.name);
    if (current === call.tool) return null;
    if (!current) return gone(call.name, 'before this call was decided');
    if (current.definitionHash !== call.tool.definitionHash) {
      const args = dropNullOptionals(current.spec.parameters, call.args);
      const valid = deps.validator.validate(call.name, current.spec.parameters, args);
      if (!valid.ok)
        return errorOutcome(
          'tool_changed',
          `${call.name} changed its definition before this call was decided, and the arguments no longer fit ` +
            `it: ${valid.message}. It was not run; call it again with arguments for the new definition.`,
        );
      call.args = args;
    }
    call.tool = current;
    return null;
  });
}

/**
 * Just before an approved call runs: if its tool's definition changed after the approval was given, the call is
 * not run (the person, rule or grant approved another definition); null when it may run.
 */
export function changedSinceApproval(
  call: ReadyCall,
  deps: PrepareDeps,
  signal?: AbortSignal,
): CallOutcome | null | Promise<CallOutcome | null> {
  const waiting = settle([call], signal);
  if (!waiting) return changedNow(call, deps);
  return waiting.then((stopped) => (stopped ? stoppedWaiting(signal) : changedNow(call, deps)));
}

function changedNow(call: ReadyCall, deps: PrepareDeps): CallOutcome | null {
  const current = deps.registry.get(call.name);
  if (!current) return gone(call.name, 'after this call was approved');
  if (current.definitionHash === call.tool.definitionHash) return null;
  return errorOutcome(
    'tool_changed',
    `${call.name} changed its definition after this call was approved, so it was not run. ` +
      'Call it again to have the new definition approved.',
  );
}

function gone(name: string, when: string): CallOutcome {
  return errorOutcome(
    'tool_changed',
    `${name} was removed by its source ${when}; it was not run. Use find_tools to see what is available now.`,
  );
}
