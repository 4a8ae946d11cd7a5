// The limit every call runs under (docs/dispatch.md): the outcome is decided by the limit or the cancel once either
// fires, work that ignores its signal is abandoned after the grace, and work aborted before it began never starts.
import { describe, expect, it, vi } from 'vitest';
import { CancelReason, TimeoutReason } from './abort';
import { runWithLimit } from './run-with-limit';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('runWithLimit', () => {
  it('returns the work’s value or its error, and leaves no timer or listener behind', async () => {
    const outer = new AbortController();
    const add = vi.spyOn(outer.signal, 'addEventListener');
    const remove = vi.spyOn(outer.signal, 'removeEventListener');
    expect(await runWithLimit(async () => 42, { limitMs: 1000, signal: outer.signal })).toEqual({
      kind: 'ok',
      value: 42,
    });
    expect(remove).toHaveBeenCalledTimes(add.mock.calls.length);
    const error = new Error('boom');
    expect(await runWithLimit(() => Promise.reject(error), { limitMs: 1000 })).toEqual({
      kind: 'error',
      error,
    });
    expect(
      await runWithLimit(
        () => {
          throw error;
        },
        { limitMs: Number.POSITIVE_INFINITY },
      ),
    ).toEqual({ kind: 'error', error });
    expect(await runWithLimit(() => 'plain', { limitMs: 1000 })).toEqual({ kind: 'ok', value: 'plain' });
  });

  it('times out: the signal fires with a TimeoutReason and work that stops in time ends the grace early', async () => {
    let seen: unknown;
    const started = Date.now();
    const outcome = await runWithLimit(
      ({ signal }) =>
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => {
            seen = signal.reason;
            reject(signal.reason);
          }),
        ),
      { limitMs: 30, graceMs: 5000 },
    );
    expect(outcome.kind).toBe('timed_out');
    expect(seen).toBeInstanceOf(TimeoutReason);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reports the limit even when the work resolves with a value after its signal fired', async () => {
    const outcome = await runWithLimit(
      ({ signal }) => new Promise((resolve) => signal.addEventListener('abort', () => resolve('late value'))),
      { limitMs: 10 },
    );
    expect(outcome).toMatchObject({ kind: 'timed_out' });
  });

  it('abandons work that ignores its signal after the grace, and says so once', async () => {
    const onAbandon = vi.fn();
    const outcome = await runWithLimit(() => new Promise(() => undefined), {
      limitMs: 10,
      graceMs: 20,
      onAbandon,
    });
    expect(outcome.kind).toBe('timed_out');
    expect(onAbandon).toHaveBeenCalledTimes(1);
    expect(onAbandon.mock.calls[0]?.[0]).toBeInstanceOf(TimeoutReason);
  });

  it('settles even when the abandon report throws', async () => {
    const outcome = await runWithLimit(() => new Promise(() => undefined), {
      limitMs: 10,
      graceMs: 10,
      onAbandon: () => {
        throw new Error('the log is gone');
      },
    });
    expect(outcome.kind).toBe('timed_out');
  });

  it('is cancelled by the outer signal with its typed reason, or a CancelReason for a bare abort', async () => {
    const outer = new AbortController();
    const typed = runWithLimit(
      ({ signal }) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      {
        limitMs: 10_000,
        signal: outer.signal,
      },
    );
    await tick(5);
    outer.abort(new CancelReason('stopped by the test'));
    expect(await typed).toMatchObject({ kind: 'cancelled', reason: { message: 'stopped by the test' } });

    const bare = new AbortController();
    const plain = runWithLimit(
      ({ signal }) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      {
        limitMs: 10_000,
        signal: bare.signal,
      },
    );
    bare.abort();
    const outcome = await plain;
    expect(outcome.kind).toBe('cancelled');
    expect(outcome.kind === 'cancelled' && outcome.reason).toBeInstanceOf(CancelReason);
  });

  it('never starts work whose signal fired before it began', async () => {
    const work = vi.fn(async () => 'ran');
    const before = new AbortController();
    before.abort(new CancelReason('already stopped'));
    expect(await runWithLimit(work, { limitMs: 1000, signal: before.signal })).toMatchObject({
      kind: 'cancelled',
    });

    const sameTick = new AbortController();
    const pending = runWithLimit(work, { limitMs: 1000, signal: sameTick.signal });
    sameTick.abort();
    expect(await pending).toMatchObject({ kind: 'cancelled' });

    expect(work).not.toHaveBeenCalled();
  });

  it('startNow starts the work before it returns; a cancel in the same turn still ends it cancelled', async () => {
    const outer = new AbortController();
    let seen: unknown = null;
    const work = vi.fn(
      (abort: { onAbort: (listener: (reason: unknown) => void) => () => void }) =>
        new Promise<string>((resolve) => abort.onAbort((why) => ((seen = why), resolve('stopped')))),
    );
    const pending = runWithLimit(work, { limitMs: 1000, signal: outer.signal, startNow: true });
    expect(work).toHaveBeenCalledTimes(1);
    outer.abort(new CancelReason('stop now'));
    expect(await pending).toMatchObject({ kind: 'cancelled' });
    expect(seen).toBeInstanceOf(CancelReason);

    const already = new AbortController();
    already.abort(new CancelReason('already stopped'));
    const never = vi.fn(async () => 'ran');
    expect(
      await runWithLimit(never, { limitMs: 1000, signal: already.signal, startNow: true }),
    ).toMatchObject({ kind: 'cancelled' });
    expect(never).not.toHaveBeenCalled();
  });

  it('ignores a cancel that comes after the work settled', async () => {
    const outer = new AbortController();
    const outcome = await runWithLimit(async () => 'done', { limitMs: 1000, signal: outer.signal });
    outer.abort();
    expect(outcome).toEqual({ kind: 'ok', value: 'done' });
  });
});
