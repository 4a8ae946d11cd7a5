// A call's cancel without an AbortSignal until one is asked for (docs/dispatch.md, "The hot path").
import { describe, expect, it, vi } from 'vitest';
import { CancelReason, TimeoutReason } from './abort';
import { CALL_ABORT, CallAbort, callAbortOf, signalOver } from './call-abort';
import { runWithLimit } from './run-with-limit';

describe('CallAbort', () => {
  it('makes no AbortSignal until one is read, and a late one is already aborted with the reason', () => {
    const made = vi.spyOn(globalThis, 'AbortController');
    const abort = new CallAbort();
    const reason = new TimeoutReason(50);
    try {
      abort.abort(reason);
      expect(abort.aborted).toBe(true);
      expect(abort.reason).toBe(reason);
      expect(made).not.toHaveBeenCalled();
    } finally {
      made.mockRestore();
    }
    expect(abort.signal.aborted).toBe(true);
    expect(abort.signal.reason).toBe(reason);
    expect(abort.signal).toBe(abort.signal);
  });

  it('fires a signal made before the cancel, then every watcher once; a throwing watcher stops none of the others', () => {
    const abort = new CallAbort();
    const order: string[] = [];
    abort.signal.addEventListener('abort', () => order.push('signal'));
    abort.onAbort(() => {
      order.push('first');
      throw new Error('a watcher failed');
    });
    const off = abort.onAbort(() => order.push('removed'));
    abort.onAbort((why) => order.push(`last:${(why as Error).message}`));
    off();
    abort.abort(new CancelReason('stopped'));
    abort.abort(new CancelReason('again'));
    expect(order).toEqual(['signal', 'first', 'last:stopped']);
    expect(abort.reason).toMatchObject({ message: 'stopped' });
    const late: unknown[] = [];
    abort.onAbort((why) => late.push(why));
    expect(late).toEqual([abort.reason]);
  });

  it('is found on a context that carries it, and not on a hand-made one', () => {
    const abort = new CallAbort();
    expect(callAbortOf({ [CALL_ABORT]: abort })).toBe(abort);
    expect(callAbortOf({ signal: new AbortController().signal })).toBeNull();
    expect(callAbortOf({ [CALL_ABORT]: null })).toBeNull();
  });
});

describe('signalOver', () => {
  it('acts as an AbortSignal for a request: throwIfAborted, one abort event per listener, removal', () => {
    const abort = new CallAbort();
    const signal = signalOver(abort);
    expect(signal.aborted).toBe(false);
    expect(() => signal.throwIfAborted()).not.toThrow();
    const heard: Array<{ type: string; target: unknown }> = [];
    const listener = (event: Event) => heard.push({ type: event.type, target: event.target });
    const removed = vi.fn();
    const handler = { handleEvent: vi.fn() };
    signal.addEventListener('abort', listener);
    signal.addEventListener('abort', listener);
    signal.addEventListener('abort', removed);
    signal.addEventListener('abort', handler);
    signal.addEventListener('other' as 'abort', removed);
    signal.removeEventListener('abort', removed);
    const reason = new TimeoutReason(10);
    abort.abort(reason);
    expect(heard).toEqual([{ type: 'abort', target: signal }]);
    expect(handler.handleEvent).toHaveBeenCalledTimes(1);
    expect(removed).not.toHaveBeenCalled();
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
    expect(() => signal.throwIfAborted()).toThrow(reason);
    // As on an AbortSignal, a listener added after the abort is never called.
    const late = vi.fn();
    signal.addEventListener('abort', late);
    expect(late).not.toHaveBeenCalled();
  });
});

describe('runWithLimit and the cancel', () => {
  it('tells work that only watches the cancel of its limit, with no AbortSignal made', async () => {
    const made = vi.spyOn(globalThis, 'AbortController');
    try {
      let heard: unknown;
      const outcome = await runWithLimit(
        (abort) =>
          new Promise((_, reject) =>
            abort.onAbort((why) => {
              heard = why;
              reject(why);
            }),
          ),
        { limitMs: 20 },
      );
      expect(outcome.kind).toBe('timed_out');
      expect(heard).toBeInstanceOf(TimeoutReason);
      expect(made).not.toHaveBeenCalled();
    } finally {
      made.mockRestore();
    }
  });
});
