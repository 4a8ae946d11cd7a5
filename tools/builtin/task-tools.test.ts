import { describe, expect, it } from 'vitest';
import { cancelTaskTool } from './cancel-task';
import { checkTaskTool } from './check-task';
import { testContext } from '../sdk/testing/tool-context';
import type { TaskPort, TaskView, ToolResult } from '../sdk/types';

// A TaskPort over plain records, as the core's TaskRegistry answers; cancel ends a running task at once.
function memoryTasks(tasks: Array<TaskView & { chatId: string }>): TaskPort & { cancelled: string[] } {
  const cancelled: string[] = [];
  return {
    cancelled,
    get: (id) => tasks.find((t) => t.id === id),
    list: (options = {}) => tasks.filter((t) => !options.chatId || t.chatId === options.chatId),
    cancel(id) {
      const task = tasks.find((t) => t.id === id);
      if (!task || task.status !== 'running') return false;
      cancelled.push(id);
      task.status = 'cancelled';
      task.endedAt = Date.now();
      task.error = 'cancelled by the user';
      return true;
    },
  };
}

function task(id: string, chatId: string, status: TaskView['status'], extra: Partial<TaskView> = {}) {
  const now = Date.now();
  return {
    id,
    chatId,
    tool: 'background_command',
    summary: 'command="npm run dev"',
    status,
    startedAt: now - 75_000,
    endedAt: status === 'running' ? null : now,
    limitMs: 60 * 60_000,
    outputTail: 'listening on 5173\n',
    result: null,
    error: null,
    ...extra,
  };
}

const text = (result: ToolResult) =>
  typeof result === 'string' ? result : result.content.map((p) => ('text' in p ? p.text : '')).join('');

describe('check_task', () => {
  it("lists this chat's tasks only, with status and elapsed/limit", async () => {
    const tasks = memoryTasks([
      task('task_a', 'test-chat', 'running'),
      task('task_b', 'other-chat', 'running'),
    ]);
    const { ctx } = testContext({ services: { tasks } });
    const result = await checkTaskTool.handler({}, ctx);
    expect(text(result)).toBe(
      'task_a background_command running (1 min 15 s of 60 min): command="npm run dev"',
    );
    const none = await checkTaskTool.handler({}, testContext({ services: { tasks: memoryTasks([]) } }).ctx);
    expect(text(none)).toBe('no background tasks in this chat');
  });

  it('shows one task with its output tail, result and error', async () => {
    const tasks = memoryTasks([
      task('task_a', 'test-chat', 'running'),
      task('task_c', 'test-chat', 'failed', { error: 'exit code 2 (failed)', result: null }),
    ]);
    const { ctx } = testContext({ services: { tasks } });
    expect(text(await checkTaskTool.handler({ task_id: 'task_a' }, ctx))).toBe(
      'task_a background_command running (1 min 15 s of 60 min): command="npm run dev"\n' +
        'output tail:\nlistening on 5173\n' +
        'still running: check again later, or pass wait_s to wait for it',
    );
    expect(text(await checkTaskTool.handler({ task_id: 'task_c' }, ctx))).toContain(
      'error:\nexit code 2 (failed)',
    );
  });

  it('waits up to wait_s for a running task to finish', async () => {
    const running = task('task_a', 'test-chat', 'running');
    const tasks = memoryTasks([running]);
    setTimeout(
      () => Object.assign(running, { status: 'succeeded', result: 'all done', endedAt: Date.now() }),
      300,
    );
    const t0 = Date.now();
    const result = await checkTaskTool.handler(
      { task_id: 'task_a', wait_s: 10 },
      testContext({ services: { tasks } }).ctx,
    );
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(text(result)).toContain('succeeded');
    expect(text(result)).toContain('result:\nall done');
  });

  it("refuses another chat's task and bad arguments, naming the parameter", async () => {
    const tasks = memoryTasks([task('task_b', 'other-chat', 'running')]);
    const { ctx } = testContext({ services: { tasks } });
    await expect(checkTaskTool.handler({ task_id: 'task_b' }, ctx)).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/^`task_id` "task_b" is not a task of this chat/),
    });
    await expect(checkTaskTool.handler({ task_id: 'task_b', wait_s: -1 }, ctx)).rejects.toThrow(
      /^`wait_s` must be/,
    );
    await expect(checkTaskTool.handler({ task_id: 7 }, ctx)).rejects.toThrow(/^`task_id` must be a string/);
    await expect(checkTaskTool.handler({}, testContext().ctx)).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('stops waiting when its call is cancelled', async () => {
    const tasks = memoryTasks([task('task_a', 'test-chat', 'running')]);
    const controller = new AbortController();
    const { ctx } = testContext({ services: { tasks }, signal: controller.signal });
    const waiting = checkTaskTool.handler({ task_id: 'task_a', wait_s: 300 }, ctx);
    setTimeout(() => controller.abort(new Error('stop')), 100);
    await expect(waiting).rejects.toThrow('stop');
  });
});

describe('cancel_task', () => {
  it('cancels a running task of this chat and reports it cancelled', async () => {
    const tasks = memoryTasks([task('task_a', 'test-chat', 'running')]);
    const result = await cancelTaskTool.handler(
      { task_id: 'task_a' },
      testContext({ services: { tasks } }).ctx,
    );
    expect(tasks.cancelled).toEqual(['task_a']);
    expect(text(result)).toMatch(/^cancelled task task_a\ntask_a background_command cancelled/);
  });

  it('leaves a finished task alone and says so', async () => {
    const tasks = memoryTasks([task('task_a', 'test-chat', 'succeeded', { result: 'ok' })]);
    const result = await cancelTaskTool.handler(
      { task_id: 'task_a' },
      testContext({ services: { tasks } }).ctx,
    );
    expect(tasks.cancelled).toEqual([]);
    expect(text(result)).toMatch(/^task task_a had already finished \(succeeded\); nothing to cancel/);
  });

  it("refuses another chat's task and a missing id, naming `task_id`", async () => {
    const tasks = memoryTasks([task('task_b', 'other-chat', 'running')]);
    const { ctx } = testContext({ services: { tasks } });
    await expect(cancelTaskTool.handler({ task_id: 'task_b' }, ctx)).rejects.toThrow(
      /^`task_id` "task_b" is not a task/,
    );
    await expect(cancelTaskTool.handler({ task_id: ' ' }, ctx)).rejects.toThrow(
      /^`task_id` must be a non-empty string/,
    );
    expect(tasks.cancelled).toEqual([]);
  });
});
