// Background tasks (docs/dispatch.md, "Background tasks"): each runs under its own signal and limit, not the turn's, and can be cancelled.
import { randomUUID } from 'node:crypto';
import type { TaskPort, TaskView, ToolResult } from '../../tools/sdk/types';
import { CancelReason } from './abort';
import { Emitter } from './emitter';
import { okOutcome, thrownOutcome } from './outcome';
import { runWithLimit } from './run-with-limit';

/** How much of a task's output the registry keeps. */
export const TASK_TAIL_BYTES = 8 * 1024;

/** The most background tasks one chat runs at once (docs/robustness.md, "Background tasks are bounded"). */
export const MAX_RUNNING_TASKS = 16;

/** What a task's work can report while it runs. */
export interface TaskReporter {
  /** Appends streamed output to the task's tail. */
  append(text: string): void;
}

/** A new task. */
export interface TaskStart {
  tool: string;
  chatId: string;
  summary: string;
  limitMs: number;
  run: (signal: AbortSignal, report: TaskReporter) => Promise<ToolResult> | ToolResult;
}

/** Tracks background tasks and emits every change. */
export class TaskRegistry implements TaskPort {
  private readonly tasks = new Map<string, TaskView & { chatId: string }>();
  private readonly controllers = new Map<string, AbortController>();
  private readonly done = new Map<string, Promise<TaskView>>();
  private readonly changes = new Emitter<TaskView & { chatId: string }>();

  /**
   * `redact` scrubs a task's result and error before anyone sees them: the list, the database, the note the model
   * reads (the dispatcher redacts a call's outcome, and a task's end is no call's outcome).
   */
  constructor(
    private readonly onAbandon?: (task: TaskView) => void,
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  /** Why `chatId` may not start another task now (it runs MAX_RUNNING_TASKS); null when it may. */
  refusal(chatId: string): string | null {
    let running = 0;
    for (const task of this.tasks.values())
      if (task.chatId === chatId && task.status === 'running') running++;
    if (running < MAX_RUNNING_TASKS) return null;
    return (
      `this chat already runs ${MAX_RUNNING_TASKS} background tasks, the most at once; ` +
      'wait for one with check_task or stop one with cancel_task first'
    );
  }

  /** Starts a task and returns its view at once; the work runs on. */
  start(start: TaskStart): TaskView {
    const id = `task_${randomUUID().slice(0, 8)}`;
    const task: TaskView & { chatId: string } = {
      id,
      tool: start.tool,
      chatId: start.chatId,
      summary: start.summary,
      status: 'running',
      startedAt: Date.now(),
      endedAt: null,
      limitMs: Number.isFinite(start.limitMs) ? start.limitMs : null,
      outputTail: '',
      result: null,
      error: null,
    };
    const controller = new AbortController();
    this.tasks.set(id, task);
    this.controllers.set(id, controller);
    this.changes.emit({ ...task });
    const reporter: TaskReporter = {
      append: (text) => {
        task.outputTail = (task.outputTail + text).slice(-TASK_TAIL_BYTES);
        this.changes.emit({ ...task });
      },
    };
    const finished = runWithLimit((abort) => start.run(abort.signal, reporter), {
      limitMs: start.limitMs,
      signal: controller.signal,
      onAbandon: () => this.onAbandon?.({ ...task }),
    }).then((outcome) => {
      task.endedAt = Date.now();
      switch (outcome.kind) {
        case 'ok': {
          const ok = okOutcome(outcome.value, task.endedAt - task.startedAt);
          task.status = 'succeeded';
          task.result = ok.outcome === 'ok' ? this.redact(ok.text) : '';
          break;
        }
        case 'error': {
          const failed = thrownOutcome(outcome.error, 0);
          task.status = 'failed';
          task.error = this.redact(failed.outcome === 'error' ? failed.message : String(outcome.error));
          break;
        }
        case 'timed_out':
          task.status = 'timed_out';
          task.error = outcome.reason.message;
          break;
        case 'cancelled':
          task.status = 'cancelled';
          task.error = outcome.reason.message;
          break;
      }
      this.controllers.delete(id);
      this.changes.emit({ ...task });
      return { ...task };
    });
    this.done.set(id, finished);
    return { ...task };
  }

  /** One task's current view. */
  get(id: string): TaskView | undefined {
    const task = this.tasks.get(id);
    return task ? { ...task } : undefined;
  }

  /** Every task, newest first, optionally of one chat. */
  list(options: { chatId?: string } = {}): TaskView[] {
    return [...this.tasks.values()]
      .filter((t) => !options.chatId || t.chatId === options.chatId)
      .sort((a, b) => b.startedAt - a.startedAt)
      .map((t) => ({ ...t }));
  }

  /** Cancels a running task; false when it is unknown or already finished. */
  cancel(id: string, reason = 'cancelled by the user'): boolean {
    const controller = this.controllers.get(id);
    if (!controller) return false;
    controller.abort(new CancelReason(reason));
    return true;
  }

  /** Cancels every running task (quitting) and waits for them to settle. */
  async cancelAll(reason = 'cancelled: the app is quitting'): Promise<void> {
    const ids = [...this.controllers.keys()];
    for (const id of ids) this.cancel(id, reason);
    await Promise.all(ids.map((id) => this.done.get(id)));
  }

  /** Resolves when the task has settled. */
  async wait(id: string): Promise<TaskView | undefined> {
    return this.done.get(id);
  }

  /** How many tasks are running. */
  get running(): number {
    return this.controllers.size;
  }

  /** Subscribes to task changes; returns the unsubscribe. */
  onChange(listener: (task: TaskView & { chatId: string }) => void): () => void {
    return this.changes.on(listener);
  }
}
