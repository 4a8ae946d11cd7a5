import { describe, expect, it } from 'vitest';
import { TaskRegistry } from './task-registry';

const until = (signal: AbortSignal) =>
  new Promise<never>((_, reject) =>
    signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
  );

describe('TaskRegistry', () => {
  it('runs a task, keeps its output tail and result, and emits every change', async () => {
    const tasks = new TaskRegistry();
    const statuses: string[] = [];
    tasks.onChange((t) => statuses.push(t.status));
    const view = tasks.start({
      tool: 'job',
      chatId: 'c',
      summary: 'n=1',
      limitMs: 5000,
      run: async (_signal, report) => {
        report.append('line 1\n');
        report.append('line 2\n');
        return 'finished';
      },
    });
    expect(view.status).toBe('running');
    const done = await tasks.wait(view.id);
    expect(done).toMatchObject({ status: 'succeeded', outputTail: 'line 1\nline 2\n', result: 'finished' });
    expect(statuses[0]).toBe('running');
    expect(statuses.at(-1)).toBe('succeeded');
  });

  it('times a task out at its own limit and cancels one on request', async () => {
    const tasks = new TaskRegistry();
    const slow = tasks.start({
      tool: 'slow',
      chatId: 'c',
      summary: '',
      limitMs: 100,
      run: (signal) => until(signal),
    });
    const cancellable = tasks.start({
      tool: 'wait',
      chatId: 'c',
      summary: '',
      limitMs: 60_000,
      run: (signal) => until(signal),
    });
    expect(tasks.running).toBe(2);
    expect(tasks.cancel(cancellable.id)).toBe(true);
    expect(await tasks.wait(slow.id)).toMatchObject({ status: 'timed_out', error: 'timed out after 0.1 s' });
    expect(await tasks.wait(cancellable.id)).toMatchObject({ status: 'cancelled' });
    expect(tasks.cancel(cancellable.id)).toBe(false);
  });

  it('settles a task that ignores its signal and reports it abandoned; cancelAll waits for every task', async () => {
    const abandoned: string[] = [];
    const tasks = new TaskRegistry((t) => abandoned.push(t.tool));
    tasks.start({
      tool: 'stubborn',
      chatId: 'c',
      summary: '',
      limitMs: 60_000,
      run: () => new Promise(() => {}),
    });
    tasks.start({
      tool: 'polite',
      chatId: 'c',
      summary: '',
      limitMs: 60_000,
      run: (signal) => until(signal),
    });
    await new Promise((r) => setTimeout(r, 20));
    const started = Date.now();
    await tasks.cancelAll();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(tasks.list().map((t) => t.status)).toEqual(['cancelled', 'cancelled']);
    expect(abandoned).toEqual(['stubborn']);
  });

  it('never starts work cancelled before it began', async () => {
    const tasks = new TaskRegistry();
    let ran = false;
    const t = tasks.start({
      tool: 'x',
      chatId: 'c',
      summary: '',
      limitMs: 1000,
      run: () => ((ran = true), 'r'),
    });
    tasks.cancel(t.id);
    expect(await tasks.wait(t.id)).toMatchObject({ status: 'cancelled' });
    expect(ran).toBe(false);
  });

  it('marks a throwing task failed with its message', async () => {
    const tasks = new TaskRegistry();
    const t = tasks.start({
      tool: 'bad',
      chatId: 'c',
      summary: '',
      limitMs: 1000,
      run: () => Promise.reject(new Error('no disk')),
    });
    expect(await tasks.wait(t.id)).toMatchObject({ status: 'failed', error: 'tool failed: no disk' });
  });
});
