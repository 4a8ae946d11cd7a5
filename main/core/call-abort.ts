// The cancel of one call or task, made an AbortSignal only when something asks for one (docs/dispatch.md, "The hot
// path"). On Node 20 making an AbortSignal (an EventTarget given a new prototype) costs 4-10 µs and leaves garbage,
// which is most of what the dispatcher adds to a fast MCP call; most calls never abort, and a handler that only needs
// to hear of the cancel (the MCP handler) watches it without one.

/** A cancel to watch: whether it fired, why, and a listener called once when it does. */
export interface AbortWatch {
  readonly aborted: boolean;
  readonly reason: unknown;
  /** Calls `listener` once on the cancel (at once if it already fired); returns the unsubscribe. */
  onAbort(listener: (reason: unknown) => void): () => void;
}

/** One call's cancel: fired once, by the code that runs the call (its limit, the turn's or the task's cancel). */
export class CallAbort implements AbortWatch {
  private controller: AbortController | null = null;
  private fired = false;
  private why: unknown = undefined;
  // One watcher is the common case (the MCP request's): kept in a field, a Set only for more.
  private first: ((reason: unknown) => void) | null = null;
  private listeners: Set<(reason: unknown) => void> | null = null;

  get aborted(): boolean {
    return this.fired;
  }

  get reason(): unknown {
    return this.why;
  }

  /** The AbortSignal, made on first use; already aborted, with the reason, if the cancel came first. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.fired) this.controller.abort(this.why);
    }
    return this.controller.signal;
  }

  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.fired) {
      listener(this.why);
      return () => {};
    }
    if (this.first === null && this.listeners === null) this.first = listener;
    else if (this.first !== listener) (this.listeners ??= new Set()).add(listener);
    if (this.first === listener) {
      return () => {
        if (this.first === listener) this.first = null;
      };
    }
    return () => this.listeners?.delete(listener);
  }

  /** Fires the cancel (once): the signal, if one was made, then every watcher. */
  abort(reason: unknown): void {
    if (this.fired) return;
    this.fired = true;
    this.why = reason;
    this.controller?.abort(reason);
    const first = this.first;
    const listeners = this.listeners;
    this.first = null;
    this.listeners = null;
    if (first) notify(first, reason);
    for (const listener of listeners ?? []) notify(listener, reason);
  }
}

function notify(listener: (reason: unknown) => void, reason: unknown): void {
  try {
    listener(reason);
  } catch {
    // One watcher that throws must not keep the cancel from the others (an EventTarget isolates them too).
  }
}

/** Where the dispatcher puts a call's CallAbort on its ToolContext, for handlers in this app that watch it. */
export const CALL_ABORT: unique symbol = Symbol('agenvoy.callAbort');

/** The call's cancel watch when the context carries one (a dispatched call), else null (a hand-made context). */
export function callAbortOf(ctx: object): AbortWatch | null {
  return (ctx as { [CALL_ABORT]?: AbortWatch })[CALL_ABORT] ?? null;
}

/**
 * An object with the part of AbortSignal a library reads to cancel one request (`aborted`, `reason`,
 * `throwIfAborted`, `addEventListener('abort')`, `removeEventListener`), over a watch, so no AbortSignal is made.
 * Only for code whose use of the signal is known and tested (the MCP SDK's Protocol.request: docs/dispatch.md);
 * never for Node's own APIs or fetch, which check for a real AbortSignal.
 */
export function signalOver(watch: AbortWatch): AbortSignal {
  return new SignalOver(watch) as unknown as AbortSignal;
}

// A class, not an object literal of closures: one is made for every MCP call (docs/dispatch.md, "The hot path").
class SignalOver {
  onabort = null;
  // Protocol.request adds one listener and never removes it: the first is kept in fields, a Map only for more.
  private firstListener: unknown = null;
  private firstUnsubscribe: (() => void) | null = null;
  private unsubscribe: Map<unknown, () => void> | null = null;

  constructor(private readonly watch: AbortWatch) {}

  get aborted(): boolean {
    return this.watch.aborted;
  }

  get reason(): unknown {
    return this.watch.reason;
  }

  throwIfAborted(): void {
    if (this.watch.aborted) throw this.watch.reason;
  }

  addEventListener(type: string, listener: unknown): void {
    // As on an AbortSignal: a listener added after the abort is never called, one added twice is called once.
    if (type !== 'abort' || this.watch.aborted || this.has(listener)) return;
    const call = (): void => {
      this.forget(listener);
      const event = { type: 'abort', target: this, currentTarget: this };
      if (typeof listener === 'function') listener.call(this, event);
      else (listener as { handleEvent?: (e: unknown) => void } | null)?.handleEvent?.(event);
    };
    if (this.firstUnsubscribe === null) {
      this.firstListener = listener;
      this.firstUnsubscribe = this.watch.onAbort(call);
    } else (this.unsubscribe ??= new Map()).set(listener, this.watch.onAbort(call));
  }

  removeEventListener(type: string, listener: unknown): void {
    if (type !== 'abort') return;
    if (this.firstUnsubscribe !== null && this.firstListener === listener) this.firstUnsubscribe();
    else this.unsubscribe?.get(listener)?.();
    this.forget(listener);
  }

  dispatchEvent(): boolean {
    return false;
  }

  private has(listener: unknown): boolean {
    return (
      (this.firstUnsubscribe !== null && this.firstListener === listener) || !!this.unsubscribe?.has(listener)
    );
  }

  private forget(listener: unknown): void {
    if (this.firstUnsubscribe !== null && this.firstListener === listener) {
      this.firstListener = null;
      this.firstUnsubscribe = null;
    } else this.unsubscribe?.delete(listener);
  }
}
