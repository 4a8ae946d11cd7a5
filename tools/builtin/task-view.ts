// How the task tools find a task of this chat and describe it to the model.
import type { TaskPort, TaskView, ToolContext } from '../sdk/types';
import { ToolError } from '../sdk/types';

/** The task port, or a clear error in a host without background tasks. */
export function requireTasks(ctx: ToolContext): TaskPort {
  const tasks = ctx.services.tasks;
  if (!tasks) throw new ToolError('unavailable', 'this host has no background tasks');
  return tasks;
}

/** The task `id` of this chat; a ToolError naming `task_id` when there is none (another chat's tasks stay hidden). */
export function findChatTask(tasks: TaskPort, ctx: ToolContext, id: string): TaskView {
  const task = tasks.list({ chatId: ctx.chatId }).find((t) => t.id === id);
  if (!task) {
    throw new ToolError(
      'not_found',
      `\`task_id\` ${JSON.stringify(id)} is not a task of this chat; call check_task without task_id to list them`,
      { parameter: 'task_id' },
    );
  }
  return task;
}

/** "12 s of 60 min", or "3 min 5 s, no limit". */
export function elapsedText(task: TaskView, now = Date.now()): string {
  const elapsed = duration((task.endedAt ?? now) - task.startedAt);
  return task.limitMs === null ? `${elapsed}, no limit` : `${elapsed} of ${duration(task.limitMs)}`;
}

/** One line per task: id, tool, status, elapsed/limit and its argument summary. */
export function taskLine(task: TaskView): string {
  return `${task.id} ${task.tool} ${task.status} (${elapsedText(task)}): ${task.summary}`;
}

/** One task in full: its line, output tail, result and error. */
export function taskReport(task: TaskView): string {
  const parts = [taskLine(task)];
  if (task.outputTail) parts.push(`output tail:\n${task.outputTail.replace(/\r?\n$/, '')}`);
  if (task.result !== null) parts.push(`result:\n${task.result}`);
  if (task.error !== null) parts.push(`error:\n${task.error}`);
  if (task.status === 'running')
    parts.push('still running: check again later, or pass wait_s to wait for it');
  return parts.join('\n');
}

function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}
