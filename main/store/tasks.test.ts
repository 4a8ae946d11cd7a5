import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatStore } from './chat-store';
import type { TaskRecord } from './tasks';
import { tempStore } from './testing/temp-store';

let temp: ReturnType<typeof tempStore>;
let store: ChatStore;
beforeEach(() => {
  temp = tempStore();
  store = temp.store;
  store.chats.create({ id: 'c', title: 'Chat', workspace: '/w' });
  store.chats.create({ id: 'd', title: 'Other', workspace: '/w' });
});
afterEach(() => {
  vi.useRealTimers();
  temp.dispose();
});

function task(id: string, patch: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id,
    chatId: 'c',
    tool: 'background_command',
    summary: 'npm test',
    status: 'running',
    startedAt: 1_000,
    endedAt: null,
    limitMs: 600_000,
    outputTail: '',
    result: null,
    error: null,
    ...patch,
  };
}

describe('TaskTable', () => {
  it('inserts a task, then updates it on every change', () => {
    store.tasks.upsert(task('t1'));
    expect(store.tasks.get('t1')).toEqual(task('t1'));
    store.tasks.upsert(task('t1', { outputTail: 'PASS 3 tests' }));
    store.tasks.upsert(task('t1', { status: 'succeeded', endedAt: 2_000, result: 'ok', outputTail: 'done' }));
    expect(store.tasks.get('t1')).toEqual(
      task('t1', { status: 'succeeded', endedAt: 2_000, result: 'ok', outputTail: 'done' }),
    );
    expect(store.tasks.get('none')).toBeUndefined();
  });

  it('stores an unlimited task with a null limit', () => {
    store.tasks.upsert(task('t', { limitMs: Number.POSITIVE_INFINITY }));
    expect(store.tasks.get('t')?.limitMs).toBeNull();
  });

  it('lists in start order, by chat and by status', () => {
    store.tasks.upsert(task('late', { startedAt: 3_000 }));
    store.tasks.upsert(
      task('early', { startedAt: 1_000, status: 'failed', error: 'exit 1', endedAt: 1_500 }),
    );
    store.tasks.upsert(task('other', { chatId: 'd', startedAt: 2_000 }));
    expect(store.tasks.list().map((t) => t.id)).toEqual(['early', 'other', 'late']);
    expect(store.tasks.list({ chatId: 'c' }).map((t) => t.id)).toEqual(['early', 'late']);
    expect(store.tasks.list({ status: 'running' }).map((t) => t.id)).toEqual(['other', 'late']);
    expect(store.tasks.list({ chatId: 'c', status: 'failed' }).map((t) => t.error)).toEqual(['exit 1']);
  });

  it('marks running tasks interrupted at start-up and returns them', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(9_000);
    store.tasks.upsert(task('run1'));
    store.tasks.upsert(task('run2', { chatId: 'd' }));
    store.tasks.upsert(task('done', { status: 'cancelled', endedAt: 1_200 }));
    expect(store.tasks.markInterrupted().map((t) => [t.id, t.status, t.endedAt])).toEqual([
      ['run1', 'interrupted', 9_000],
      ['run2', 'interrupted', 9_000],
    ]);
    expect(store.tasks.get('done')?.status).toBe('cancelled');
    expect(store.tasks.markInterrupted()).toEqual([]);
  });

  it('refuses a task for a chat that does not exist', () => {
    expect(() => store.tasks.upsert(task('t', { chatId: 'missing' }))).toThrow(/FOREIGN KEY/);
  });
});

describe('ProcessGroupTable', () => {
  const group = (pgid: number, startedAt: number) => ({
    pgid,
    command: 'npm test',
    startedAt,
    startTime: '12345',
    bootId: 'boot-1',
  });

  it('records live groups with their owner, oldest first, and forgets removed ones', () => {
    store.processGroups.record(group(300, 2_000), { callId: 'call_1' });
    store.processGroups.record(group(200, 1_000), { taskId: 'task_1' });
    store.processGroups.record({ ...group(400, 3_000), startTime: null, bootId: null });
    expect(store.processGroups.live()).toEqual([
      { ...group(200, 1_000), owner: { taskId: 'task_1' } },
      { ...group(300, 2_000), owner: { callId: 'call_1' } },
      { ...group(400, 3_000), startTime: null, bootId: null, owner: {} },
    ]);
    expect(store.processGroups.remove(300)).toBe(true);
    expect(store.processGroups.remove(300)).toBe(false);
    expect(store.processGroups.live().map((g) => g.pgid)).toEqual([200, 400]);
  });

  it('replaces a stale record when the pgid comes round again', () => {
    store.processGroups.record(group(500, 1_000), { taskId: 'old' });
    store.processGroups.record({ ...group(500, 5_000), startTime: '99999' }, { taskId: 'new' });
    expect(store.processGroups.live()).toEqual([
      { ...group(500, 5_000), startTime: '99999', owner: { taskId: 'new' } },
    ]);
  });

  it('outlives the chat of the task that started it, until it is killed', () => {
    store.tasks.upsert(task('t'));
    store.processGroups.record(group(600, 1_000), { taskId: 't' });
    store.chats.delete('c');
    expect(store.processGroups.live().map((g) => g.pgid)).toEqual([600]);
  });
});
